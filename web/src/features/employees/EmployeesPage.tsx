import { SignedInPlaceholder } from '../../app/signed-in/SignedInPlaceholder';

/** Slot: built by the manager console issue. */
export function EmployeesPage() {
  return <SignedInPlaceholder title="Employees" />;
}
