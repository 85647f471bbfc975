/**
 * Text on Mantine's light yellow (alerts, badges): its own yellow title and
 * badge text read at 2.7:1 there; this dark brown reads at AA (WCAG 1.4.3).
 */
export const TEXT_ON_LIGHT_YELLOW = '#713f12';
