/**
 * The account pages (issue #3), each its own lazily loaded chunk. The public
 * ones (/login, /register*, /verify*, /forgotpassword, /auth/callback) use the
 * light public components only: no Mantine. The signed-in ones
 * (dashboard home, edit profile) render inside SignedInLayout, with Mantine.
 */
import { lazy } from 'react';

export const LoginPage = lazy(() =>
  import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })),
);
export const RegisterPage = lazy(() =>
  import('../features/auth/RegisterPage').then((m) => ({ default: m.RegisterPage })),
);
export const RegisterManagerPage = lazy(() =>
  import('../features/auth/RegisterManagerPage').then((m) => ({ default: m.RegisterManagerPage })),
);
export const RegisterEmployeePage = lazy(() =>
  import('../features/auth/RegisterEmployeePage').then((m) => ({ default: m.RegisterEmployeePage })),
);
export const VerifyEmailPage = lazy(() =>
  import('../features/auth/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
export const VerifyPage = lazy(() =>
  import('../features/auth/VerifyPage').then((m) => ({ default: m.VerifyPage })),
);
export const ForgotPasswordPage = lazy(() =>
  import('../features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
export const SocialCallbackPage = lazy(() =>
  import('../features/auth/SocialCallbackPage').then((m) => ({ default: m.SocialCallbackPage })),
);
export const loadDashboardPage = () => import('../features/dashboard/DashboardPage');
export const loadEditProfilePage = () => import('../features/profile/EditProfilePage');
export const DashboardPage = lazy(() => loadDashboardPage().then((m) => ({ default: m.DashboardPage })));
export const EditProfilePage = lazy(() =>
  loadEditProfilePage().then((m) => ({ default: m.EditProfilePage })),
);
