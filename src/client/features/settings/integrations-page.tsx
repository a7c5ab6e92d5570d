import { ApiKeysSection } from './components/api-keys-section.tsx';
import { WebhooksSection } from './components/webhooks-section.tsx';
import { SettingsNav } from './settings-nav.tsx';

/** /dashboard/settings/integrations (owners): API keys for other programs to call in, and webhooks out. */
export function IntegrationsPage() {
  return (
    <section className="space-y-6">
      <SettingsNav />
      <ApiKeysSection />
      <WebhooksSection />
    </section>
  );
}
