/**
 * What a signed-in address shows while the signed-in frame's code (Mantine,
 * the header and menu) loads: the frame's outline and, for a person whose
 * session may be restored (the session marker) with a role that may see the
 * page (the session hint), the page's heading and lead line. In the main
 * chunk and public.css, so it paints with the app's first code, not after
 * Mantine and the API (issue 25, "the signed-in app's first screen fast").
 *
 * It decides nothing: the route guard (RequireRole) still waits for the
 * session and sends anyone not signed in away with its message. Its outline
 * matches the frame's geometry (public.css `.pub-frame`), so the heading stays
 * where the frame paints it again.
 */
import type { Role } from '@shared/schemas/me';
import { matchPath, useLocation } from 'react-router-dom';
import { readSessionHint } from '../auth/sessionHint';
import { readSessionKind } from '../auth/sessionMarker';
import { pageHeadings as headings, leadFor, type PageHeading } from '../content/pageHeadings';
import { Loading } from './Loading';

const ANYONE: readonly Role[] = ['manager', 'employee'];
const MANAGER: readonly Role[] = ['manager'];
const EMPLOYEE: readonly Role[] = ['employee'];

/** The signed-in addresses with a fixed heading, and who may see them (as App.tsx guards them). */
const screens: ReadonlyArray<readonly [path: string, roles: readonly Role[], heading: PageHeading]> = [
  ['/dashboard', ANYONE, headings.dashboard],
  ['/dashboard/employees', MANAGER, headings.employees],
  ['/dashboard/purchasehistory', ANYONE, headings.purchaseHistory],
  ['/dashboard/creditcard', MANAGER, headings.creditCards],
  ['/dashboard/addcreditcard', MANAGER, headings.addCreditCard],
  ['/dashboard/subscription', MANAGER, headings.subscription],
  ['/dashboard/activity', MANAGER, headings.activity],
  ['/dashboard/insights', MANAGER, headings.insights],
  ['/dashboard/statement', EMPLOYEE, headings.statement],
  ['/inviteMembers', MANAGER, headings.inviteMembers],
  ['/editProfile/:employeeId?', ANYONE, headings.editProfile],
  ['/shop', ANYONE, headings.shop],
];

/** The heading to paint at `pathname` for whoever may be signed in here, if any. */
export function pendingHeadingAt(pathname: string): { heading: PageHeading; role: Role } | undefined {
  const role = readSessionKind() ? readSessionHint()?.role : undefined;
  if (!role) return undefined;
  const screen = screens.find(([path]) => matchPath({ path, caseSensitive: false, end: true }, pathname));
  return screen?.[1].includes(role) ? { heading: screen[2], role } : undefined;
}

export function FrameSkeleton() {
  const { pathname } = useLocation();
  const pending = pendingHeadingAt(pathname);
  const lead = pending ? leadFor(pending.heading, pending.role) : undefined;
  return (
    <div className="pub-frame" data-frame-skeleton="">
      <div className="pub-frame__header" />
      <div className="pub-frame__navbar" />
      <div className="pub-frame__main">
        {pending ? (
          // Assistive technology hears "Loading…" until the page itself is there.
          <div aria-hidden="true">
            <h1 className="pub-frame__title">{pending.heading.title}</h1>
            {lead ? <p className="pub-frame__lead">{lead}</p> : null}
          </div>
        ) : null}
        <Loading />
      </div>
    </div>
  );
}
