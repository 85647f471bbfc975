/** What the route guard says when it turns someone away (issue 25: never "without a word"). */
export const guardMessages = {
  ended: 'Your session has ended. Please sign in again; you will come back to this page.',
  signIn: 'Please sign in to open that page; you will come back to it.',
  managersOnly: 'That page is for managers only.',
  employeesOnly: 'That page is for employees only.',
} as const;
