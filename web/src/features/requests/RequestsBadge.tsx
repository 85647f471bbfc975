/**
 * The side menu's count of requests waiting for the manager (issue 27). Its
 * own chunk, loaded after the frame's first paint (it needs the API client);
 * read again on each page the manager opens, so decisions made elsewhere show.
 */
import { Badge } from '@mantine/core';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useRequests } from './requestStore';

export function RequestsBadge() {
  const { pathname } = useLocation();
  const count = useRequests((s) => s.pendingCount);
  const load = useRequests((s) => s.loadPendingCount);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page opened is the reason to read again.
  useEffect(() => {
    void load();
  }, [pathname, load]);
  if (!count) return null;
  return (
    <Badge size="sm" color="red.9" circle aria-label={`${count} waiting`} data-testid="requests-badge">
      {count}
    </Badge>
  );
}
