import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe's serious and critical findings on the page (or inside `include`), each as one line
 * naming the rule and the elements, so a failing test says what to fix. WCAG 2.1 A/AA and
 * axe's best practices unless `bestPractice` is false.
 */
export async function seriousViolations(page: Page, options: { include?: string; bestPractice?: boolean } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page })
    .withTags(options.bestPractice === false ? WCAG : [...WCAG, 'best-practice'])
    // Every node of each violation; of passes and the rest, only whether there were any (far less to collect and send back).
    .options({ resultTypes: ['violations'] })
    // axe.run in the page itself, not runPartial there and finishRun in a new blank page per
    // scan (a tab opened and closed each time): the same rules and findings for our pages, which
    // have no cross-origin frames, in less time.
    .setLegacyMode();
  if (options.include) builder = builder.include(options.include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? `: ${n.failureSummary}` : ''}`).join('; ')})`,
    );
}
