import { useEffect, useRef } from 'react';
import { takeCarriedNotice } from '../stores/carriedNotice';
import { type Notification, notify, useNotifications } from '../stores/notifications';

function Toast({ item, onDismiss }: { item: Notification; onDismiss: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  // The notices sit at the top of the page: any answer to a long form's submit
  // (success as much as failure), made far below, is brought into view, or a
  // phone shows only the form emptying itself (focus stays where the person is).
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <div ref={box} className={`pub-toast pub-toast--${item.kind}`}>
      <div className="pub-toast__body">
        {item.title ? <p className="pub-toast__title">{item.title}</p> : null}
        <p className="pub-toast__message">{item.message}</p>
      </div>
      <button
        type="button"
        className="pub-toast__close"
        onClick={onDismiss}
        aria-label="Dismiss notification"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/**
 * The two live regions are always in the page (empty until needed): screen
 * readers announce content added to a region that already exists, not a region
 * that appears together with its content.
 */
export function Toaster() {
  const items = useNotifications((state) => state.items);
  const dismiss = useNotifications((state) => state.dismiss);
  const polite = items.filter((item) => item.kind !== 'error');
  const urgent = items.filter((item) => item.kind === 'error');
  // A notice from the page before a full-page detour (a social sign-out), shown once the regions exist.
  useEffect(() => {
    const carried = takeCarriedNotice();
    if (carried) notify(carried);
  }, []);

  return (
    <div className="pub-toaster">
      <div role="status" aria-live="polite" className="pub-toaster__region">
        {polite.map((item) => (
          <Toast key={item.id} item={item} onDismiss={() => dismiss(item.id)} />
        ))}
      </div>
      <div role="alert" aria-live="assertive" className="pub-toaster__region">
        {urgent.map((item) => (
          <Toast key={item.id} item={item} onDismiss={() => dismiss(item.id)} />
        ))}
      </div>
    </div>
  );
}
