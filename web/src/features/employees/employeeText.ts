/** How the employees tables word a person's state (spec §3: card status shown as pending if absent). */
import type { EmployeeRow } from './employeesStore';

export const statusLabel: Record<EmployeeRow['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  paused: 'Paused',
  deleted: 'Deleted',
};

export const cardStatusLabel: Record<EmployeeRow['cardStatus'], string> = {
  active: 'Active',
  inactive: 'Inactive',
  pending: 'Pending',
  canceled: 'Canceled',
};
