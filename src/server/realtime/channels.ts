/**
 * What the database announces, and on which channels: the triggers NOTIFY here, every process
 * LISTENs (notification-hub.ts), and after-commit.ts announces for the transactions that keep
 * their triggers quiet.
 */
export const NOTIFICATION_CHANNEL = 'crm_notifications';
/**
 * Announced by triggers when leads (or what a lead's page shows) or appointments change, and
 * by the analytics recorder when events arrive (at most every 2 s a process): open lists refetch.
 */
export const CHANGE_CHANNEL = 'crm_changes';
export const CHANGE_RESOURCES = ['leads', 'appointments', 'analytics'] as const;
export type ChangeResource = (typeof CHANGE_RESOURCES)[number];
