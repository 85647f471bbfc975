/**
 * Fund requests (issue 27): employees ask for money for one thing, managers
 * approve (an extra deposit through services/money) or decline; the team's
 * rules; the daily expiry.
 */
export {
  approvalTotal,
  approveRequests,
  cancelRequest,
  createRequest,
  declineRequest,
  expireRequests,
  getOneRequest,
  listRequests,
  myRequests,
  requestRules,
  setRequestRules,
  teamRequests,
} from './requests';
