import { SignedInPlaceholder } from '../../app/signed-in/SignedInPlaceholder';

/** Slot: built by the manager console issue. */
export function AddCreditCardPage() {
  return <SignedInPlaceholder title="Add Credit Card" />;
}
