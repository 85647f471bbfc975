import { SignedInPlaceholder } from '../../app/signed-in/SignedInPlaceholder';

/** Slot: built by the manager console issue. */
export function SetupAccountPage() {
  return <SignedInPlaceholder title="Set Up Your Account" />;
}
