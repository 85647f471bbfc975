import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> {
  children: ReactNode;
  variant?: 'primary' | 'secondary';
  /**
   * Unavailable for now. Uses aria-disabled rather than the disabled attribute so
   * the button keeps focus while a request runs and stays discoverable by screen
   * readers; clicks (and Enter in the form) still reach the form's onSubmit,
   * which must check the same condition.
   */
  disabled?: boolean;
  /** Shows a spinner; the accessible name does not change. */
  busy?: boolean;
}

export function Button({
  children,
  variant = 'primary',
  disabled = false,
  busy = false,
  type = 'button',
  className,
  onClick,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={`pub-btn pub-btn--${variant}${className ? ` ${className}` : ''}`}
      aria-disabled={disabled || undefined}
      onClick={(event) => {
        if (disabled && type !== 'submit') {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {busy ? <span className="pub-btn__spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
