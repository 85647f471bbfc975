import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A wide table that scrolls sideways on a narrow screen. The scrolling box is
 * a focusable, named region so keyboard users can scroll it too (axe's
 * scrollable-region-focusable rule); Mantine's ScrollContainer is not.
 */
export function ScrollableTable({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <Box miw={minWidth}>{children}</Box>
    </Box>
  );
}
