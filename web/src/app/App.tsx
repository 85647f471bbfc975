/**
 * Every route of spec §2. Public pages render in PublicLayout with plain React
 * and public.css; the signed-in area (SignedInLayout, Mantine) and the form
 * pages (zod) are separate chunks loaded on first visit, so the landing page
 * ships only React, the router and this file's small components.
 */
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import type { Role } from '../../../shared/src/schemas/me';
import { Toaster } from '../components/Toaster';
import { LandingPage } from '../features/landing/LandingPage';
import { Loading } from './Loading';
import { NoMatch } from './NoMatch';
import { Placeholder } from './Placeholder';
import { PublicLayout } from './PublicLayout';
import { RequireRole } from './RequireRole';

const SubscribePage = lazy(() =>
  import('../features/waitlist/SubscribePage').then((m) => ({ default: m.SubscribePage })),
);
const SupportPage = lazy(() =>
  import('../features/support/SupportPage').then((m) => ({ default: m.SupportPage })),
);

const SignedInLayout = lazy(() =>
  import('./signed-in/SignedInLayout').then((m) => ({ default: m.SignedInLayout })),
);
const SignedInPlaceholder = lazy(() =>
  import('./signed-in/SignedInPlaceholder').then((m) => ({ default: m.SignedInPlaceholder })),
);

const ANYONE_SIGNED_IN: readonly Role[] = ['employee', 'manager'];
const MANAGER: readonly Role[] = ['manager'];

/** A protected placeholder page: the guard, then the page inside the app shell. */
function Protected({ roles, title }: { roles: readonly Role[]; title: string }) {
  return (
    <RequireRole roles={roles}>
      <SignedInPlaceholder title={title} />
    </RequireRole>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<PublicLayout />}>
          <Route index element={<LandingPage />} />
          <Route path="login" element={<Placeholder title="Sign In" />} />
          <Route path="register" element={<Placeholder title="Sign Up" />} />
          <Route path="registerManager" element={<Placeholder title="Create New Team" />} />
          <Route path="registerEmployee" element={<Placeholder title="Join an Existing Team" />} />
          <Route path="verifyEmail" element={<Placeholder title="Verify Email Address" />} />
          <Route path="verify" element={<Placeholder title="Verifying your account" />} />
          <Route path="forgotpassword" element={<Placeholder title="Password Recovery" />} />
          <Route path="subscribe" element={<SubscribePage />} />
          <Route path="support" element={<SupportPage />} />
          <Route path="faqs" element={<Placeholder title="FAQs" />} />
          <Route path="howitworks">
            <Route index element={<Placeholder title="How It Works" />} />
            <Route path="setup" element={<Placeholder title="How It Works: Setup" />} />
            <Route path="shop" element={<Placeholder title="How It Works: Shop" />} />
            <Route path="upload" element={<Placeholder title="How It Works: Upload Receipt" />} />
          </Route>
          <Route path="pricing" element={<Placeholder title="Pricing" />} />
          <Route path="terms" element={<Placeholder title="Terms of Use" />} />
          <Route path="privacy" element={<Placeholder title="Privacy Policy" />} />
          <Route path="*" element={<NoMatch />} />
        </Route>

        <Route
          element={
            <Suspense fallback={<Loading fullPage />}>
              <SignedInLayout />
            </Suspense>
          }
        >
          {/* Listed as public in spec §2, but it is a signed-in manager's wizard (invites, card). */}
          <Route path="setupAccount" element={<Protected roles={MANAGER} title="Set Up Your Account" />} />
          <Route path="dashboard">
            <Route index element={<Protected roles={ANYONE_SIGNED_IN} title="Dashboard" />} />
            <Route path="employees" element={<Protected roles={MANAGER} title="Employees" />} />
            <Route
              path="purchasehistory"
              element={<Protected roles={ANYONE_SIGNED_IN} title="Purchase History" />}
            />
            <Route path="creditcard" element={<Protected roles={MANAGER} title="Credit Cards" />} />
            <Route path="addcreditcard" element={<Protected roles={MANAGER} title="Add Credit Card" />} />
            {/* decisions.md: this address asks for confirmation; loading it never freezes anything. */}
            <Route
              path="freezeEmployee/:cardId/:userId"
              element={<Protected roles={MANAGER} title="Freeze Card" />}
            />
          </Route>
          <Route path="inviteMembers" element={<Protected roles={MANAGER} title="Invite Members" />} />
          <Route
            path="editProfile/:employeeId?"
            element={<Protected roles={ANYONE_SIGNED_IN} title="Edit Profile" />}
          />
          <Route path="shop" element={<Protected roles={ANYONE_SIGNED_IN} title="Shop" />} />
        </Route>
      </Routes>
      <Toaster />
    </BrowserRouter>
  );
}
