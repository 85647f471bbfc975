/**
 * The public site's forms: the waitlist and the contact form.
 */
export { joinWaitlist, sendContactMessage } from './publicForms';
