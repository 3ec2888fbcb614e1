// Issue 25 item 8: the browser host sends the OS notification the tutorial promises. Opt-in only (nothing is
// asked on load, a granted permission alone sends nothing), one notification per new card while the tab is
// hidden, none while it is visible, and a click opens the card. The Notification constructor is wrapped by an
// init script so the test sees each call; the permission is granted in the browser context, as a person would.
import { test, expect, bash } from '../test/support/e2e-fixtures.js';
import { expectNoAxeViolations } from '../test/support/e2e-axe.js';

declare global {
  interface Window {
    __notes: { title: string; body?: string; tag?: string; note: Notification }[];
    __asked: number;
    __hidden: boolean;
  }
}

test('a new card notifies from the browser once the person opts in, only while the tab is hidden; a click opens it', async ({ page, served }, testInfo) => {
  await page.context().grantPermissions(['notifications'], { origin: served.origin });
  await page.addInitScript(() => {
    const Real = window.Notification;
    window.__notes = [];
    window.__asked = 0;
    window.__hidden = false;
    class Recorded extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        window.__notes.push({ title, body: options?.body, tag: options?.tag, note: this });
      }
      static override requestPermission(): Promise<NotificationPermission> {
        window.__asked++;
        return Real.requestPermission();
      }
    }
    Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true, writable: true });
    Object.defineProperty(document, 'visibilityState', { get: () => (window.__hidden ? 'hidden' : 'visible'), configurable: true });
  });
  let calls = 0;
  await served.agent('helper', () => ({ toolCalls: [bash(`echo card ${++calls}`)] }), 'ask');
  await page.goto(served.url);
  await expect(page.getByRole('banner')).toBeVisible();
  const notes = () => page.evaluate(() => window.__notes.map(({ title, body, tag }) => ({ title, body, tag })));
  const hidden = (h: boolean) => page.evaluate((v) => (window.__hidden = v), h);
  const newCard = async (n: number) => {
    await served.call('runsStart', { agent: 'helper', prompt: `card ${n}` });
    await expect.poll(async () => (await served.call('inboxList', {})).length).toBe(n);
    // The window has the card (so its work_available event reached this tab) before anything is checked.
    await expect(page.getByTestId('pending-count')).toHaveAccessibleName(`${n} pending`);
  };

  // Not opted in: a hidden tab with the permission already granted gets nothing, and nothing was asked on load.
  await hidden(true);
  await newCard(1);
  expect(await notes()).toEqual([]);
  expect(await page.evaluate(() => window.__asked)).toBe(0);

  await hidden(false);
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'About' }).click();
  const toggle = page.getByRole('switch', { name: 'Notify me of new cards while this tab is hidden' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('Your browser allows notifications from this address.')).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'settings-about-notify');

  // Visible: the window shows the card, no notification.
  await newCard(2);
  expect(await notes()).toEqual([]);

  // Hidden: one notification for the new card, worded as the desktop app's.
  await hidden(true);
  await newCard(3);
  const card = (await served.call('inboxList', {})).find((c) => JSON.stringify(c).includes('echo card 3'))!;
  await expect.poll(notes).toEqual([{ title: 'Approval needed · helper', body: expect.stringContaining('echo card 3'), tag: card.id }]);

  // The click opens that card in the inbox.
  await page.evaluate(() => window.__notes[0]!.note.onclick?.(new Event('click')));
  await expect(page).toHaveURL(new RegExp(`#/inbox/${encodeURIComponent(card.id)}$`));

  // Turned off again, a hidden tab gets nothing more.
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'About' }).click();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await newCard(4);
  expect(await notes()).toHaveLength(1);
});
