import { ApiKeysSection } from './components/api-keys-section.tsx';
import { SettingsNav } from './settings-nav.tsx';

/** /dashboard/settings/integrations (owners): API keys for other programs to call in (and, later, webhooks out). */
export function IntegrationsPage() {
  return (
    <section className="space-y-6">
      <SettingsNav />
      <ApiKeysSection />
      {/* Webhooks: <WebhooksSection /> (components/webhooks-section.tsx) goes here, below the API keys. */}
    </section>
  );
}
