// Notifications with the page closed (docs/social.md, "Web Push" and "E-mail"): this browser's
// Web Push subscription for the seat, and the seat's e-mail address for deadline reminders,
// confirmed by the code of a first mail (its link's ``#email-code=``, or typed).
// Each control shows only where the server offers it (a VAPID key, an SMTP server) and the
// browser can use it; what the server answers is what the controls show.
import {api, failure} from "./api.js";
import {byId} from "./dom.js";
import {authOptionsPath, emailConfirmPath, emailPath, pushKeyPath, pushPath} from "./endpoints.js";

const ui = {
  push: byId("push", HTMLInputElement),
  pushRow: byId("push-row", HTMLElement),
  emailForm: byId("email-form", HTMLFormElement),
  email: byId("email", HTMLInputElement),
  codeForm: byId("email-code-form", HTMLFormElement),
  code: byId("email-code", HTMLInputElement),
  status: byId("offpage-status", HTMLElement),
};

/** The base64url key as the bytes ``pushManager.subscribe`` takes. @param {string} text */
function keyBytes(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

export class OffPage {
  /** @param {string} gameId @param {() => string | null} token */
  constructor(gameId, token) {
    this.gameId = gameId;
    this.token = token;
    this.started = false;
    ui.push.addEventListener("change", () => this.switchPush(ui.push.checked));
    ui.emailForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.saveEmail(ui.email.value.trim());
    });
    ui.codeForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.confirmEmail(ui.code.value.trim());
    });
    /** @type {string | null} */
    this.linkCode = null;  // the code of a confirmation mail's link, sent once the seat is known
  }

  /** Once the page knows the player holds a seat: show what the server (its options, asked
   *  first, so that nothing it lacks is asked for) and the browser offer. */
  async start() {
    if (this.started || !this.token()) return;
    this.started = true;
    const offered = await api(authOptionsPath());
    await Promise.all([offered.web_push ? this.showPush() : null, offered.email ? this.showEmail() : null]);
  }

  async showPush() {
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) return;
    this.key = (await api(pushKeyPath())).public_key;
    const registration = await navigator.serviceWorker.getRegistration("/static/");
    const mine = registration ? await registration.pushManager.getSubscription() : null;
    const stored = /** @type {{endpoints: string[]}} */ (await api(pushPath(this.gameId), {token: this.token()}));
    ui.push.checked = Boolean(mine && stored.endpoints.includes(mine.endpoint));
    ui.pushRow.hidden = false;
  }

  async showEmail() {
    const stored = await api(emailPath(this.gameId), {token: this.token()});
    ui.email.value = stored.address || "";
    ui.emailForm.hidden = false;
    const code = this.linkCode;
    this.linkCode = null;
    if (code && stored.address && !stored.confirmed) await this.confirmEmail(code);
    else this.sayEmail(stored);
  }

  /** What the seat's address is waiting for, and the code's field while it waits.
   *  @param {{address: string | null, confirmed: boolean}} stored */
  sayEmail(stored) {
    ui.codeForm.hidden = !stored.address || stored.confirmed;
    if (!stored.address) return;
    ui.status.textContent = stored.confirmed ? `Deadline reminders go to ${stored.address}.`
      : `A mail with a code went to ${stored.address}: open its link, or type the code here. Reminders go there once it is confirmed.`;
  }

  /** @param {string} code */
  async confirmEmail(code) {
    try {
      this.sayEmail(await api(emailConfirmPath(this.gameId), {method: "POST", token: this.token(), body: {code}}));
      ui.code.value = "";
    } catch (thrown) {
      ui.codeForm.hidden = false;
      ui.status.textContent = `Not confirmed: ${failure(thrown).message}`;
    }
  }

  /** @param {boolean} wanted */
  async switchPush(wanted) {
    ui.push.disabled = true;
    try {
      const registration = await navigator.serviceWorker.register("/static/sw.js", {scope: "/static/"});
      const current = await registration.pushManager.getSubscription();
      if (wanted) {
        if (await Notification.requestPermission() !== "granted") {
          ui.push.checked = false;
          ui.status.textContent = "The browser did not allow notifications.";
          return;
        }
        const subscription = current || await registration.pushManager.subscribe(
          {userVisibleOnly: true, applicationServerKey: keyBytes(this.key || "")});
        await api(pushPath(this.gameId), {method: "PUT", token: this.token(), body: subscription.toJSON()});
        ui.status.textContent = "This browser will be told of new phases, messages and deadlines, even with the page closed.";
      } else if (current) {
        await api(pushPath(this.gameId, current.endpoint), {method: "DELETE", token: this.token()});
        ui.status.textContent = "This browser will no longer be told with the page closed.";
      }
    } catch (thrown) {
      ui.push.checked = !wanted;
      ui.status.textContent = `Not changed: ${failure(thrown).message}`;
    } finally {
      ui.push.disabled = false;
    }
  }

  /** @param {string} address  empty: remove it */
  async saveEmail(address) {
    try {
      if (address) {
        this.sayEmail(await api(emailPath(this.gameId), {method: "PUT", token: this.token(), body: {address}}));
      } else {
        await api(emailPath(this.gameId), {method: "DELETE", token: this.token()});
        ui.codeForm.hidden = true;
        ui.status.textContent = "No more reminders by e-mail.";
      }
    } catch (thrown) {
      ui.status.textContent = `Not saved: ${failure(thrown).message}`;
    }
  }
}
