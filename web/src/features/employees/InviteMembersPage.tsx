import { SignedInPlaceholder } from '../../app/signed-in/SignedInPlaceholder';

/** Slot: built by the manager console issue. */
export function InviteMembersPage() {
  return <SignedInPlaceholder title="Invite Members" />;
}
