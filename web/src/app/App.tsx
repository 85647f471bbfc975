/**
 * Every route of spec §2. Public pages render in PublicLayout with plain React
 * and public.css; the signed-in area (SignedInLayout, Mantine) and the form
 * pages (zod) are separate chunks loaded on first visit.
 *
 * The marketing pages (/, /pricing, /faqs, /howitworks/*, /terms, /privacy) are
 * pre-rendered to HTML at build time and served without React (see
 * docs/public-site.md). The SPA still routes them, from one lazy chunk, so
 * in-app links and `npm run dev` show the same components.
 */

import type { Role } from '@shared/schemas/me';
import { lazy, type ReactNode, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import type { PageKey } from '../content/pages';
import {
  DashboardPage,
  EditProfilePage,
  ForgotPasswordPage,
  LoginPage,
  RegisterEmployeePage,
  RegisterManagerPage,
  RegisterPage,
  SocialCallbackPage,
  VerifyEmailPage,
  VerifyPage,
} from './accountPages';
import {
  ActivityPage,
  AddCreditCardPage,
  CreditCardsPage,
  EmployeesPage,
  FreezeEmployeePage,
  InsightsPage,
  InviteMembersPage,
  loadSignedInLayout,
  ProvisioningPage,
  PurchaseHistoryPage,
  RequestsPage,
  RosterImportPage,
  SetupAccountPage,
  ShopPage,
  StatementPage,
  SubscriptionPage,
} from './consolePages';
import { FrameSkeleton } from './FrameSkeleton';
import { NoMatch } from './NoMatch';
import { PublicLayout } from './PublicLayout';
import { RequireRole } from './RequireRole';

const SubscribePage = lazy(() =>
  import('../features/waitlist/SubscribePage').then((m) => ({ default: m.SubscribePage })),
);
const UnsubscribePage = lazy(() =>
  import('../features/nudges/UnsubscribePage').then((m) => ({ default: m.UnsubscribePage })),
);
const SupportPage = lazy(() =>
  import('../features/support/SupportPage').then((m) => ({ default: m.SupportPage })),
);

const PublicPage = lazy(() => import('../features/publicPages').then((m) => ({ default: m.PublicPage })));
const publicPage = (page: PageKey) => <PublicPage page={page} />;

const SignedInLayout = lazy(() => loadSignedInLayout().then((m) => ({ default: m.SignedInLayout })));

const ANYONE_SIGNED_IN: readonly Role[] = ['employee', 'manager'];
const MANAGER: readonly Role[] = ['manager'];
const EMPLOYEE: readonly Role[] = ['employee'];

/** A page for these roles only (others are sent to /, spec §2). */
function guarded(roles: readonly Role[], page: ReactNode) {
  return <RequireRole roles={roles}>{page}</RequireRole>;
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={publicPage('landing')} />
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="registerManager" element={<RegisterManagerPage />} />
          <Route path="registerEmployee" element={<RegisterEmployeePage />} />
          <Route path="verifyEmail" element={<VerifyEmailPage />} />
          <Route path="verify" element={<VerifyPage />} />
          <Route path="forgotpassword" element={<ForgotPasswordPage />} />
          {/* Where Cognito returns after Google/Facebook sign-in (config.json oauthRedirect). */}
          <Route path="auth/callback" element={<SocialCallbackPage />} />
          <Route path="subscribe" element={<SubscribePage />} />
          <Route path="support" element={<SupportPage />} />
          <Route path="unsubscribe" element={<UnsubscribePage />} />
          <Route path="faqs" element={publicPage('faqs')} />
          <Route path="howitworks">
            <Route index element={publicPage('howItWorks')} />
            <Route path="setup" element={publicPage('howItWorksSetup')} />
            <Route path="shop" element={publicPage('howItWorksShop')} />
            <Route path="upload" element={publicPage('howItWorksUpload')} />
          </Route>
          <Route path="pricing" element={publicPage('pricing')} />
          <Route path="terms" element={publicPage('terms')} />
          <Route path="privacy" element={publicPage('privacy')} />
          <Route path="*" element={<NoMatch />} />
        </Route>

        <Route
          element={
            <Suspense fallback={<FrameSkeleton />}>
              <SignedInLayout />
            </Suspense>
          }
        >
          {/* Listed as public in spec §2, but it is a signed-in manager's wizard (invites, card). */}
          <Route path="setupAccount" element={guarded(MANAGER, <SetupAccountPage />)} />
          <Route path="dashboard">
            <Route index element={guarded(ANYONE_SIGNED_IN, <DashboardPage />)} />
            <Route path="employees" element={guarded(MANAGER, <EmployeesPage />)} />
            {/* Issue 28: a CSV of people, checked row by row before anything happens. */}
            <Route path="importRoster" element={guarded(MANAGER, <RosterImportPage />)} />
            <Route path="purchasehistory" element={guarded(ANYONE_SIGNED_IN, <PurchaseHistoryPage />)} />
            <Route path="creditcard" element={guarded(MANAGER, <CreditCardsPage />)} />
            <Route path="addcreditcard" element={guarded(MANAGER, <AddCreditCardPage />)} />
            <Route path="subscription" element={guarded(MANAGER, <SubscriptionPage />)} />
            <Route path="activity" element={guarded(MANAGER, <ActivityPage />)} />
            {/* Issue 26: what the budget did, by skill area, media, merchant, person and month. */}
            <Route path="insights" element={guarded(MANAGER, <InsightsPage />)} />
            {/* Ours (issue 28): the identity provider's SCIM connection. */}
            <Route path="provisioning" element={guarded(MANAGER, <ProvisioningPage />)} />
            {/* Ours (decisions.md "employee view of their own ledger"). */}
            <Route path="statement" element={guarded(EMPLOYEE, <StatementPage />)} />
            {/* Issue 27: fund requests; /dashboard/requests/<id> is the e-mailed link (it only opens the request). */}
            <Route path="requests" element={guarded(ANYONE_SIGNED_IN, <RequestsPage />)} />
            <Route path="requests/:requestId" element={guarded(ANYONE_SIGNED_IN, <RequestsPage />)} />
            {/* decisions.md: this address asks for confirmation; loading it never freezes anything. */}
            <Route path="freezeEmployee/:cardId/:userId" element={guarded(MANAGER, <FreezeEmployeePage />)} />
          </Route>
          <Route path="inviteMembers" element={guarded(MANAGER, <InviteMembersPage />)} />
          <Route path="editProfile/:employeeId?" element={guarded(ANYONE_SIGNED_IN, <EditProfilePage />)} />
          <Route path="shop" element={guarded(ANYONE_SIGNED_IN, <ShopPage />)} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
