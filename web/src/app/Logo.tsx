/** The product mark (a card); decorative, the product name beside it is the text. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#1d4ed8" />
      <rect x="6" y="9" width="20" height="14" rx="2.5" fill="none" stroke="#fff" strokeWidth="2" />
      <path d="M6 13.5h20M10 19h5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
