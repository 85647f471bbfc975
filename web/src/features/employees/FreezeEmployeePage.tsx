import { SignedInPlaceholder } from '../../app/signed-in/SignedInPlaceholder';

/** Slot: built by the manager console issue. */
export function FreezeEmployeePage() {
  return <SignedInPlaceholder title="Freeze Card" />;
}
