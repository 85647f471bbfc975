/**
 * The team's time zone, chosen from the zones the browser knows (Intl's IANA
 * list, searchable: type "Los" or "Chicago"). Used by the setup wizard and by
 * the manager's profile; the server checks the same list.
 */
import { Select } from '@mantine/core';
import { timeZoneLabel, timeZoneNames } from '@shared/domain/calendar';
import { useMemo } from 'react';

export const TIME_ZONE_LABEL = 'Time zone';
export const TIME_ZONE_HELP =
  'Every date in the app, the e-mails, the CSV export and the invoices is the day in this zone.';

/** The zone this browser is in: the wizard's first answer. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

export function TimeZoneSelect({
  value,
  onChange,
  error,
  disabled,
}: {
  value: string;
  onChange: (zone: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  const data = useMemo(() => {
    const names = timeZoneNames();
    // A zone an older list lacks (a rename) still shows as chosen.
    return (names.includes(value) ? names : [value, ...names]).map((zone) => ({
      value: zone,
      label: timeZoneLabel(zone),
    }));
  }, [value]);
  return (
    <Select
      label={TIME_ZONE_LABEL}
      description={TIME_ZONE_HELP}
      data={data}
      value={value}
      onChange={(zone) => {
        if (zone) onChange(zone);
      }}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No zone by that name"
      error={error}
      disabled={disabled}
      maw={420}
    />
  );
}
