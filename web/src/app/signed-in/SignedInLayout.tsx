/**
 * The signed-in area's shell, loaded lazily (see App.tsx) so Mantine's
 * JavaScript and CSS never reach the public pages.
 *
 * Header (spec §2 "Header and menus"): logo, Dashboard and Shop tabs, the
 * shop search ('Search by title, author, or skill'; Enter goes to /shop?q=),
 * and the avatar menu (Edit Profile, Beta Feedback, FAQs, How It Works,
 * Support, Logout). Side menu: spec §2 without its hidden entries
 * (decisions.md); MANAGE and PAYMENT for managers only.
 *
 * Why Mantine here: its components follow the WAI-ARIA authoring practices
 * (focus trapping modals, labelled inputs, keyboard-operable menus), and it has
 * the tables, modals, forms and AppShell layout the manager screens need.
 */
import '@mantine/core/styles.css';
import {
  AppShell,
  Avatar,
  Burger,
  Button,
  type CSSVariablesResolver,
  createTheme,
  Group,
  MantineProvider,
  Menu,
  NavLink,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import type { Role } from '@shared/schemas/me';
import { type CSSProperties, type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { readSessionHint } from '../../auth/sessionHint';
import { ensureSession, useSession } from '../../auth/sessionStore';
import { useRouteFocus } from '../../components/useRouteFocus';
import { signInMessages } from '../../content/accountMessages';
import { leadFor } from '../../content/pageHeadings';
import { PRODUCT_NAME } from '../../content/site';
import { TOUR_MENU_TARGET } from '../../features/dashboard/tourSteps';
import { Loading } from '../Loading';
import { Logo } from '../Logo';
import { type PendingPage, PendingPageContext } from '../pendingPage';
import { LocalTimeLink } from './LocalTimeLink';
import { NOTICE_CLEARANCE_VAR } from './noticeClearance';
import { NotificationsHost } from './notificationsHost';

/**
 * What the frame's first paint does not need, in chunks of their own: they
 * start loading with the frame's first render and show once loaded. The
 * step-up dialog (the API client, zod, Mantine's Modal and PasswordInput)
 * is asked for only on a money-moving action, long after; the card button
 * (the API client) and the banners (the dormancy texts) wait for GET /me's
 * answer anyway. The frame and the page's heading then paint on less code.
 */
const StepUpDialog = lazy(() =>
  import('../../features/stepUp/StepUpDialog').then((m) => ({ default: m.StepUpDialog })),
);
const loadCardButton = () => import('../../features/card/CardButton');
const CardButton = lazy(() => loadCardButton().then((m) => ({ default: m.CardButton })));
const PastDueBanner = lazy(() => import('./PastDueBanner').then((m) => ({ default: m.PastDueBanner })));
const SubscriptionBanner = lazy(() =>
  import('./SubscriptionBanner').then((m) => ({ default: m.SubscriptionBanner })),
);
const DormancyBanner = lazy(() => import('./DormancyBanner').then((m) => ({ default: m.DormancyBanner })));
// Fund requests (issue 27): the employee's "Request funds" form and the manager's count of waiting requests.
const RequestDialog = lazy(() =>
  import('../../features/requests/RequestDialog').then((m) => ({ default: m.RequestDialog })),
);
const RequestsBadge = lazy(() =>
  import('../../features/requests/RequestsBadge').then((m) => ({ default: m.RequestsBadge })),
);

const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'md',
  // Modals, menus and notifications appear without animation for people who ask for less motion.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  components: {
    // Mantine's dimmed help text is 3.3:1 on white; gray.7 reads at AA (4.5:1 and more).
    // Plain objects, not Component.extend(): extend() would pull each component
    // (Modal, Notification) into the first signed-in download.
    InputWrapper: { styles: { description: { color: 'var(--mantine-color-gray-7)' } } },
    // Mantine's close buttons are icons without a name; screen readers need one (axe: button-name).
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } },
      // A title is often typed or pasted by people (a receipt titled with a link is one long word):
      // it wraps, anywhere if it must, and never pushes the close button out of the dialog.
      styles: {
        header: { gap: 'var(--mantine-spacing-sm)' },
        title: { minWidth: 0, overflowWrap: 'anywhere', lineHeight: 1.35 },
        close: { flexShrink: 0 },
      },
    },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } } },
  },
});

/**
 * Mantine's light-scheme error colour is red.6 (#fa5252), 3.3:1 on white: field
 * messages such as 'Card is expired' failed WCAG AA contrast. red.9 (#c92a2a) is
 * 5.5:1 on white and stays above 4.5:1 on the light red of alerts; red.8 would
 * pass on white only just (4.5:1).
 */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

interface MenuItem {
  label: string;
  to: string;
  /** Only these roles see the entry; everyone signed in when absent. */
  roles?: readonly Role[];
  /** What the walkthrough tour points at (features/dashboard/tourSteps.ts). */
  tour?: string;
}

const MANAGER: readonly Role[] = ['manager'];
const EMPLOYEE: readonly Role[] = ['employee'];

/** Side menu of spec §2 without its hidden entries (decisions.md). */
const menu: readonly { section?: string; roles?: readonly Role[]; items: readonly MenuItem[] }[] = [
  {
    items: [
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Shop', to: '/shop' },
    ],
  },
  {
    section: 'Manage',
    roles: MANAGER,
    items: [
      { label: 'Employees', to: '/dashboard/employees', tour: 'nav-employees' },
      // Ours (issue 28): people added and removed by the team's identity provider (SCIM).
      { label: 'Provisioning', to: '/dashboard/provisioning' },
    ],
  },
  {
    section: 'Activity',
    items: [
      { label: 'Purchase History', to: '/dashboard/purchasehistory' },
      // Ours (decisions.md "audit log"): the team's log of manager actions and money movements.
      { label: 'Activity Log', to: '/dashboard/activity', roles: MANAGER, tour: 'nav-activity' },
      // Issue 26: is the budget working? Spend by skill area, media, merchant, person and month.
      { label: 'Insights', to: '/dashboard/insights', roles: MANAGER },
      // Ours (decisions.md): the employee's own ledger with running balances.
      { label: 'Statement', to: '/dashboard/statement', roles: EMPLOYEE },
      // Issue 27: fund requests; the manager's entry carries how many wait for them.
      { label: 'Requests', to: '/dashboard/requests' },
    ],
  },
  {
    section: 'Payment',
    roles: MANAGER,
    items: [
      { label: 'Credit Card', to: '/dashboard/creditcard', tour: 'nav-creditcard' },
      // Ours (decisions.md "Subscription lifecycle"): suspend, resume or close.
      { label: 'Subscription', to: '/dashboard/subscription' },
    ],
  },
  { section: 'Account', items: [{ label: 'Edit Profile', to: '/editProfile' }] },
];

/**
 * A page's heading and lead while a reload restores the session (the route
 * guard asks for it, RequireRole): the same Title and Text the page renders,
 * so its first screen paints before the API has answered. Hidden from
 * assistive technology, which hears the "Loading…" status instead until the
 * page itself is there.
 */
const pendingPage: PendingPage = (heading, role) => {
  const lead = leadFor(heading, role);
  return (
    <div data-pending-page="">
      <div aria-hidden="true">
        <Title order={1}>{heading.title}</Title>
        {lead ? <Text c="gray.7">{lead}</Text> : null}
      </div>
      <Loading />
    </div>
  );
};

const SEARCH_PLACEHOLDER = 'Search by title, author, or skill';

/**
 * The shop search (spec §2, §9). On /shop the terms are the shop's `q` URL
 * parameter, applied 500 ms after the last keystroke (Enter applies at once);
 * elsewhere Enter moves to /shop?q= 500 ms later. The URL wins when it changes
 * from elsewhere (a suggestion, back, the shop's own field on phones).
 */
const SEARCH_DELAY_MS = 500; // spec §9: search idle and redirect after search (shared/src/domain/shopFilter.ts)

function ShopSearch({ onSearched }: { onSearched?: () => void }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const urlTerms = pathname === '/shop' ? (params.get('q') ?? '') : '';
  const [terms, setTerms] = useState(urlTerms);
  const shown = useRef(urlTerms);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => {
    if (urlTerms !== shown.current) {
      shown.current = urlTerms;
      setTerms(urlTerms);
    }
  }, [urlTerms]);
  useEffect(() => () => clearTimeout(redirect.current), []);

  function applyOnShop(value: string) {
    if (window.location.pathname !== '/shop') return;
    const q = value.trim();
    shown.current = q;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (q) next.set('q', q);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }
  const applyWhenIdle = useDebouncedCallback(applyOnShop, SEARCH_DELAY_MS);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    applyWhenIdle.cancel();
    const q = terms.trim();
    if (pathname === '/shop') applyOnShop(q);
    else {
      clearTimeout(redirect.current);
      redirect.current = setTimeout(
        () => navigate(q ? `/shop?q=${encodeURIComponent(q)}` : '/shop'),
        SEARCH_DELAY_MS,
      );
    }
    onSearched?.();
  }

  return (
    <search style={{ flex: 1, maxWidth: 420 }} data-tour="header-search">
      <form onSubmit={onSubmit}>
        <TextInput
          type="search"
          aria-label="Search the shop"
          placeholder={SEARCH_PLACEHOLDER}
          value={terms}
          onChange={(event) => {
            setTerms(event.currentTarget.value);
            applyWhenIdle(event.currentTarget.value);
          }}
          leftSection={
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
              <circle cx="7" cy="7" r="5" fill="none" stroke="currentColor" strokeWidth="1.6" />
              <path d="M11 11l3.5 3.5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
            </svg>
          }
        />
      </form>
    </search>
  );
}

function initials(firstName: string | undefined, lastName: string | undefined): string {
  return `${firstName?.[0] ?? ''}${lastName?.[0] ?? ''}`.toUpperCase() || '?';
}

function AccountMenu() {
  const navigate = useNavigate();
  const me = useSession((s) => s.me);
  const signOut = useSession((s) => s.signOut);
  const name = me ? `${me.firstName} ${me.lastName}`.trim() : '';

  async function logout() {
    // The guard of this page sends us to /login as soon as we are signed out
    // (exitTo); navigating too makes it so even where no guard is rendered.
    navigate('/login');
    await signOut('/login', { kind: 'success', message: signInMessages.loggedOut });
  }

  return (
    <Menu position="bottom-end" width={220} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={name ? `Account menu for ${name}` : 'Account menu'}>
          <Group gap={8} wrap="nowrap">
            <Avatar color="blue" radius="xl" size={36}>
              {initials(me?.firstName, me?.lastName)}
            </Avatar>
            <Text size="sm" fw={600} visibleFrom="sm" maw={160} truncate>
              {me?.firstName ?? ''}
            </Text>
            <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
              <path d="M2.5 4.5L6 8l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
            </svg>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {me ? (
          <Menu.Label>
            <Text size="sm" fw={600} c="dark" truncate>
              {name}
            </Text>
            <Text size="xs" c="gray.7" truncate>
              {me.email}
            </Text>
          </Menu.Label>
        ) : null}
        <Menu.Item component={Link} to="/editProfile">
          Edit Profile
        </Menu.Item>
        <Menu.Item component={Link} to="/support">
          Beta Feedback
        </Menu.Item>
        <Menu.Item component={Link} to="/faqs">
          FAQs
        </Menu.Item>
        <Menu.Item component={Link} to="/howitworks">
          How It Works
        </Menu.Item>
        <Menu.Item component={Link} to="/support">
          Support
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red.8" onClick={() => void logout()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** Dashboard and Shop, the header's two tabs (links, marked as the current page when they are). */
function HeaderTabs() {
  const { pathname } = useLocation();
  const tabs = [
    {
      label: 'Dashboard',
      to: '/dashboard',
      active: pathname.startsWith('/dashboard'),
      tour: 'header-dashboard',
    },
    { label: 'Shop', to: '/shop', active: pathname.startsWith('/shop'), tour: 'header-shop' },
  ];
  return (
    <Group component="nav" aria-label="Sections" gap={4} visibleFrom="sm" wrap="nowrap">
      {tabs.map((tab) => (
        <Button
          key={tab.to}
          component={Link}
          to={tab.to}
          variant={tab.active ? 'light' : 'subtle'}
          color={tab.active ? 'blue' : 'dark'}
          aria-current={tab.active ? 'page' : undefined}
          data-tour={tab.tour}
        >
          {tab.label}
        </Button>
      ))}
    </Group>
  );
}

export function SignedInLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const loading = useSession((s) => s.status === 'loading');
  // While a reload restores the session, the menu follows the role signed in with (the hint):
  // it only shows links, and each page's guard still waits for the session itself.
  const meRole = useSession((s) => s.me?.role);
  const role = meRole ?? (loading ? readSessionHint()?.role : undefined);
  useRouteFocus(main);

  useEffect(() => {
    void ensureSession();
  }, []);
  // An employee's header shows the card button once signed in: its code comes meanwhile.
  useEffect(() => {
    if (role === 'employee') void loadCardButton().catch(() => undefined);
  }, [role]);

  const visibleMenu = menu
    .filter((group) => !group.roles || (role !== undefined && group.roles.includes(role)))
    .map((group) => ({
      ...group,
      items: group.items.filter((item) => !item.roles || (role !== undefined && item.roles.includes(role))),
    }));

  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <NotificationsHost />
      <Suspense fallback={null}>
        <StepUpDialog />
      </Suspense>
      {role === 'employee' ? (
        <Suspense fallback={null}>
          <RequestDialog />
        </Suspense>
      ) : null}
      <a className="pub-skip-link" href="#app-main">
        Skip to main content
      </a>
      <AppShell
        header={{ height: 64 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={opened ? 'Close navigation' : 'Open navigation'}
                aria-expanded={opened}
                aria-controls="app-navbar"
                data-tour={TOUR_MENU_TARGET}
              />
              <UnstyledButton component={Link} to="/dashboard" aria-label={`${PRODUCT_NAME} dashboard`}>
                <Group gap="xs" wrap="nowrap">
                  <Logo size={28} />
                  <Text fw={700} visibleFrom="md">
                    {PRODUCT_NAME}
                  </Text>
                </Group>
              </UnstyledButton>
              <HeaderTabs />
            </Group>
            <Group visibleFrom="sm" style={{ flex: 1 }} justify="center">
              <ShopSearch />
            </Group>
            <Group gap="sm" wrap="nowrap">
              {/* Only once signed in: the card button asks the API for the balance at once. */}
              {meRole === 'employee' ? (
                <Suspense fallback={null}>
                  <CardButton />
                </Suspense>
              ) : null}
              <AccountMenu />
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar id="app-navbar" p="sm" aria-label="Main">
          <Group hiddenFrom="sm" mb="sm">
            <ShopSearch onSearched={close} />
          </Group>
          {visibleMenu.map((group) => (
            <div key={group.section ?? 'home'}>
              {group.section ? (
                <Text size="xs" fw={700} tt="uppercase" c="gray.7" mt="md" mb={4} px="sm">
                  {group.section}
                </Text>
              ) : null}
              {group.items.map((item) => {
                // A request's own address (the e-mailed link) is the Requests page too.
                const active =
                  pathname === item.to ||
                  (item.to === '/dashboard/requests' && pathname.startsWith(`${item.to}/`));
                const badge = item.to === '/dashboard/requests' && role === 'manager';
                return (
                  <NavLink
                    key={item.to}
                    component={Link}
                    to={item.to}
                    label={item.label}
                    rightSection={
                      badge ? (
                        <Suspense fallback={null}>
                          <RequestsBadge />
                        </Suspense>
                      ) : undefined
                    }
                    active={active}
                    // Mantine's active blue fades on its hover background below AA; blue.9 stays above.
                    style={
                      active ? ({ '--nl-color': 'var(--mantine-color-blue-9)' } as CSSProperties) : undefined
                    }
                    aria-current={active ? 'page' : undefined}
                    data-tour={item.tour}
                    onClick={close}
                  />
                );
              })}
            </div>
          ))}
          <LocalTimeLink />
        </AppShell.Navbar>

        <AppShell.Main id="app-main" ref={main} tabIndex={-1}>
          <Suspense fallback={null}>
            <PastDueBanner />
            <SubscriptionBanner />
            <DormancyBanner />
          </Suspense>
          <PendingPageContext.Provider value={pendingPage}>
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </PendingPageContext.Provider>
          {/* Room below the last control for the notices at the bottom (noticeClearance.ts); not the
              main's padding, which AppShell animates, so the room is there before the page scrolls into it. */}
          <div aria-hidden="true" style={{ height: `var(${NOTICE_CLEARANCE_VAR}, 0px)` }} />
        </AppShell.Main>
      </AppShell>
    </MantineProvider>
  );
}
