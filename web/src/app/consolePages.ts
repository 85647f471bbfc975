/**
 * The signed-in screens, each its own lazily loaded chunk, so a person
 * downloads only the screens they open (the employees table, the card form and
 * the activity log are not in the first signed-in load).
 */
import { lazy } from 'react';

export const SetupAccountPage = lazy(() =>
  import('../features/setup/SetupAccountPage').then((m) => ({ default: m.SetupAccountPage })),
);
export const EmployeesPage = lazy(() =>
  import('../features/employees/EmployeesPage').then((m) => ({ default: m.EmployeesPage })),
);
export const InviteMembersPage = lazy(() =>
  import('../features/employees/InviteMembersPage').then((m) => ({ default: m.InviteMembersPage })),
);
export const FreezeEmployeePage = lazy(() =>
  import('../features/employees/FreezeEmployeePage').then((m) => ({ default: m.FreezeEmployeePage })),
);
export const CreditCardsPage = lazy(() =>
  import('../features/billing/CreditCardsPage').then((m) => ({ default: m.CreditCardsPage })),
);
export const SubscriptionPage = lazy(() =>
  import('../features/billing/SubscriptionPage').then((m) => ({ default: m.SubscriptionPage })),
);
export const AddCreditCardPage = lazy(() =>
  import('../features/billing/AddCreditCardPage').then((m) => ({ default: m.AddCreditCardPage })),
);
export const ActivityPage = lazy(() =>
  import('../features/activity/ActivityPage').then((m) => ({ default: m.ActivityPage })),
);
export const ShopPage = lazy(() =>
  import('../features/shop/ShopPage').then((m) => ({ default: m.ShopPage })),
);
export const StatementPage = lazy(() =>
  import('../features/statement/StatementPage').then((m) => ({ default: m.StatementPage })),
);
export const PurchaseHistoryPage = lazy(() =>
  import('../features/purchases/PurchaseHistoryPage').then((m) => ({ default: m.PurchaseHistoryPage })),
);
