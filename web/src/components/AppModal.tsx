import { Modal, type ModalProps } from '@mantine/core';
import { useDialogFocusReturn } from './dialogFocus';

/**
 * Mantine's Modal for the signed-in app, with focus going back to whatever
 * opened it when it closes, however it was mounted (dialogFocus.ts).
 */
export function AppModal(props: ModalProps) {
  useDialogFocusReturn(props.opened);
  return <Modal {...props} returnFocus={false} />;
}
