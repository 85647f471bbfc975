/**
 * The account fields every auth form shares, with the limits the shared
 * schemas enforce (shared/src/schemas/), so each page states only
 * what differs: the label, the autocomplete purpose, a hint.
 */
import { PASSWORD_HELPER_TEXT } from '@shared/schemas/auth';
import { TextField, type TextFieldProps } from '../../components/TextField';

/** What `useSchemaForm().field(name)` gives, plus any TextField prop to override. */
type Binding = Omit<TextFieldProps, 'label'> & { label?: string };

export function EmailField(props: Binding) {
  return (
    <TextField label="Work Email" type="email" autoComplete="email" required maxLength={254} {...props} />
  );
}

/** A password being chosen: says the rule under the label. */
export function NewPasswordField(props: Binding) {
  return (
    <TextField
      label="Password"
      type="password"
      autoComplete="new-password"
      hint={PASSWORD_HELPER_TEXT}
      required
      maxLength={256}
      {...props}
    />
  );
}

/** A password being typed to sign in or confirmed: no rule shown. */
export function PasswordField(props: Binding) {
  return (
    <TextField
      label="Password"
      type="password"
      autoComplete="current-password"
      required
      maxLength={256}
      {...props}
    />
  );
}

export function NameFields({ first, last }: { first: Binding; last: Binding }) {
  return (
    <div className="pub-form__row">
      <TextField label="First Name" autoComplete="given-name" required maxLength={50} {...first} />
      <TextField label="Last Name" autoComplete="family-name" required maxLength={50} {...last} />
    </div>
  );
}
