/** Slot: the dashboard's first 5 employees with a link to all (manager console issue). */
export function EmployeesPreview() {
  return null;
}
