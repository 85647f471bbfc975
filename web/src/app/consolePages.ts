/**
 * The signed-in screens, each its own lazily loaded chunk, so a person
 * downloads only the screens they open (the employees table, the card form and
 * the activity log are not in the first signed-in load).
 *
 * Each screen's loader is also in `signedInPageLoaders`, by address, so that a
 * first load of a signed-in address starts fetching its screen's code at once
 * (./preloadSignedIn.ts) instead of after the session has been restored.
 */
import { lazy } from 'react';
import { loadDashboardPage, loadEditProfilePage } from './accountPages';

const loadSetupAccount = () => import('../features/setup/SetupAccountPage');
const loadEmployees = () => import('../features/employees/EmployeesPage');
const loadInviteMembers = () => import('../features/employees/InviteMembersPage');
const loadRosterImport = () => import('../features/employees/RosterImportPage');
const loadFreezeEmployee = () => import('../features/employees/FreezeEmployeePage');
const loadCreditCards = () => import('../features/billing/CreditCardsPage');
const loadSubscription = () => import('../features/billing/SubscriptionPage');
const loadAddCreditCard = () => import('../features/billing/AddCreditCardPage');
const loadActivity = () => import('../features/activity/ActivityPage');
const loadProvisioning = () => import('../features/provisioning/ProvisioningPage');
const loadShop = () => import('../features/shop/ShopPage');
const loadStatement = () => import('../features/statement/StatementPage');
const loadPurchaseHistory = () => import('../features/purchases/PurchaseHistoryPage');
const loadRequests = () => import('../features/requests/RequestsPage');
// Issue 26: with its charts (recharts), which no other screen but the Statement's chart loads.
const loadInsights = () => import('../features/insights/InsightsPage');

/** The frame of every signed-in screen (Mantine, header, menu). */
export const loadSignedInLayout = () => import('./signed-in/SignedInLayout');

export const SetupAccountPage = lazy(() => loadSetupAccount().then((m) => ({ default: m.SetupAccountPage })));
export const EmployeesPage = lazy(() => loadEmployees().then((m) => ({ default: m.EmployeesPage })));
export const InviteMembersPage = lazy(() =>
  loadInviteMembers().then((m) => ({ default: m.InviteMembersPage })),
);
export const RosterImportPage = lazy(() => loadRosterImport().then((m) => ({ default: m.RosterImportPage })));
export const FreezeEmployeePage = lazy(() =>
  loadFreezeEmployee().then((m) => ({ default: m.FreezeEmployeePage })),
);
export const CreditCardsPage = lazy(() => loadCreditCards().then((m) => ({ default: m.CreditCardsPage })));
export const SubscriptionPage = lazy(() => loadSubscription().then((m) => ({ default: m.SubscriptionPage })));
export const AddCreditCardPage = lazy(() =>
  loadAddCreditCard().then((m) => ({ default: m.AddCreditCardPage })),
);
export const ActivityPage = lazy(() => loadActivity().then((m) => ({ default: m.ActivityPage })));
export const ProvisioningPage = lazy(() => loadProvisioning().then((m) => ({ default: m.ProvisioningPage })));
export const ShopPage = lazy(() => loadShop().then((m) => ({ default: m.ShopPage })));
export const StatementPage = lazy(() => loadStatement().then((m) => ({ default: m.StatementPage })));
export const PurchaseHistoryPage = lazy(() =>
  loadPurchaseHistory().then((m) => ({ default: m.PurchaseHistoryPage })),
);

export const InsightsPage = lazy(() => loadInsights().then((m) => ({ default: m.InsightsPage })));

export const RequestsPage = lazy(() => loadRequests().then((m) => ({ default: m.RequestsPage })));

/**
 * Each signed-in address (as App.tsx routes it) with the loader of its screen.
 * A missing entry costs only speed: that screen's code then loads after the session.
 */
export const signedInPageLoaders: ReadonlyArray<readonly [path: string, load: () => Promise<unknown>]> = [
  ['/setupAccount', loadSetupAccount],
  ['/dashboard', loadDashboardPage],
  ['/dashboard/employees', loadEmployees],
  ['/dashboard/importRoster', loadRosterImport],
  ['/dashboard/purchasehistory', loadPurchaseHistory],
  ['/dashboard/creditcard', loadCreditCards],
  ['/dashboard/addcreditcard', loadAddCreditCard],
  ['/dashboard/subscription', loadSubscription],
  ['/dashboard/activity', loadActivity],
  ['/dashboard/insights', loadInsights],
  ['/dashboard/provisioning', loadProvisioning],
  ['/dashboard/statement', loadStatement],
  ['/dashboard/requests', loadRequests],
  ['/dashboard/requests/:requestId', loadRequests],
  ['/dashboard/freezeEmployee/:cardId/:userId', loadFreezeEmployee],
  ['/inviteMembers', loadInviteMembers],
  ['/editProfile/:employeeId?', loadEditProfilePage],
  ['/shop', loadShop],
];
