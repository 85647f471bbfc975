/**
 * What the route guard (RequireRole, in the main chunk) shows while a reload
 * restores the session: the signed-in frame supplies it (SignedInLayout, with
 * Mantine), the guard decides when. Outside the frame, or for a page without a
 * known heading, the guard shows its plain "Loading…".
 */
import { createContext, type ReactNode } from 'react';
import type { PageHeading } from '../content/pageHeadings';

export type PendingPage = (heading: PageHeading, role: 'manager' | 'employee') => ReactNode;

export const PendingPageContext = createContext<PendingPage | undefined>(undefined);
