/**
 * The signed-in area's shell, loaded lazily (see App.tsx) so Mantine's
 * JavaScript and CSS never reach the public pages.
 *
 * Why Mantine here: its components follow the WAI-ARIA authoring practices
 * (focus trapping modals, labelled inputs, keyboard-operable menus), and it has
 * the tables, modals, forms and AppShell layout the manager screens need.
 */
import '@mantine/core/styles.css';
import {
  AppShell,
  Burger,
  createTheme,
  Group,
  MantineProvider,
  NavLink,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { useRouteFocus } from '../../components/useRouteFocus';
import { PRODUCT_NAME } from '../../content/site';
import { Loading } from '../Loading';
import { Logo } from '../Logo';

const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

interface MenuItem {
  label: string;
  to: string;
}

/**
 * Side menu of spec §2 without its hidden entries (decisions.md). Sections
 * MANAGE and PAYMENT are for managers: filtered by role once accounts exist.
 */
const menu: readonly { section?: string; items: readonly MenuItem[] }[] = [
  {
    items: [
      { label: 'Dashboard', to: '/dashboard' },
      { label: 'Shop', to: '/shop' },
    ],
  },
  { section: 'Manage', items: [{ label: 'Employees', to: '/dashboard/employees' }] },
  { section: 'Activity', items: [{ label: 'Purchase History', to: '/dashboard/purchasehistory' }] },
  { section: 'Payment', items: [{ label: 'Credit Card', to: '/dashboard/creditcard' }] },
  { section: 'Account', items: [{ label: 'Edit Profile', to: '/editProfile' }] },
];

export function SignedInLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  useRouteFocus(main);

  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <a className="pub-skip-link" href="#app-main">
        Skip to main content
      </a>
      <AppShell
        header={{ height: 60 }}
        navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group gap="sm">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={opened ? 'Close navigation' : 'Open navigation'}
                aria-expanded={opened}
                aria-controls="app-navbar"
              />
              <UnstyledButton component={Link} to="/dashboard" aria-label={`${PRODUCT_NAME} dashboard`}>
                <Group gap="xs">
                  <Logo size={28} />
                  <Text fw={700}>{PRODUCT_NAME}</Text>
                </Group>
              </UnstyledButton>
            </Group>
          </Group>
        </AppShell.Header>

        <AppShell.Navbar id="app-navbar" p="sm" aria-label="Main">
          {menu.map((group) => (
            <div key={group.section ?? 'home'}>
              {group.section ? (
                <Text size="xs" fw={700} tt="uppercase" c="gray.7" mt="md" mb={4} px="sm">
                  {group.section}
                </Text>
              ) : null}
              {group.items.map((item) => {
                const active = pathname === item.to;
                return (
                  <NavLink
                    key={item.to}
                    component={Link}
                    to={item.to}
                    label={item.label}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                    onClick={close}
                  />
                );
              })}
            </div>
          ))}
        </AppShell.Navbar>

        <AppShell.Main id="app-main" ref={main} tabIndex={-1}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
    </MantineProvider>
  );
}
