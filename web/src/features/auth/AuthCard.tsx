import './auth.css';
import type { ReactNode } from 'react';

/** The white card every account page puts its heading and form in. */
export function AuthCard({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="pub-card auth-card">
      <h1 className="pub-page__title" tabIndex={-1}>
        {title}
      </h1>
      {lead ? <p className="pub-page__lead">{lead}</p> : null}
      {children}
    </div>
  );
}

/** Links under a form, e.g. 'Create an account' and 'Forgot password?'. */
export function AuthLinks({ children }: { children: ReactNode }) {
  return <ul className="auth-links">{children}</ul>;
}
