"""The sandbox's pages clicked in a real browser: headless Chromium driven by Selenium.

Run by scripts/browser-tests.sh (which starts a sandbox and sets SANDBOX_URL and
CHARGEKIT_MERCHANT_KEY). Each page is loaded and its buttons clicked as a person
would, at a phone's size (390x844) and a desktop's; every outcome is checked
through the API, not on the page. Nothing here adds a header a browser would not
send: the posts are the browser's own form submissions.
"""
import http.server
import json
import os
import subprocess
import tempfile
import threading
import unittest
import urllib.request
import uuid
from urllib.parse import quote, urljoin, urlsplit

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = os.environ["SANDBOX_URL"]
KEY = os.environ["CHARGEKIT_MERCHANT_KEY"]
CHARGEKIT = os.environ["CHARGEKIT_BIN"]
SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


def api(method, path, token, body=None):
    request = urllib.request.Request(BASE + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        return json.load(error)


SERVER = api("POST", "/v1/access-tokens", KEY, {"token_type": "server"})["data"]["access_token"]
CLIENT = api("POST", "/v1/access-tokens", KEY, {"token_type": "client"})["data"]["access_token"]


def create(method="alipay", **urls):
    body = {"transaction": {"reference": "browser-" + uuid.uuid4().hex, "amount": 1099, "currency": "USD", "country": "US"},
            "urls": {"success": BASE + "/", "fail": BASE + "/", "cancel": BASE + "/", **urls}}
    if method:  # without one, the answer offers every client
        body["payment"] = {"method": method, "client": ["desktop", "mobile_browser"]}
    data = api("POST", "/v1/charges", SERVER, body)["data"]
    links = {entry["client"]: entry["content"] for entry in data["payment"]["client"]}
    return data["id"], data["charge_token"], links


def status(charge_id):
    return api("GET", "/v1/transactions/" + charge_id, SERVER)["data"]["status"]


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_page_load_timeout(20)
    # --window-size sets the outer window; make the page itself the size asked for.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


class Attacker(http.server.BaseHTTPRequestHandler):
    """Another site: a page whose form posts to the wallet by itself."""
    page = ""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(Attacker.page.encode())

    def log_message(self, *arguments):
        pass


class Pages:
    """The same checks at each size (a mixin; the subclasses set SIZE)."""
    SIZE = "desktop"

    @classmethod
    def setUpClass(cls):
        cls.driver = browser(*SIZES[cls.SIZE])

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def wait_for(self, charge_id, expected):
        WebDriverWait(self.driver, 10).until(lambda _: status(charge_id) == expected)
        self.assertEqual(status(charge_id), expected)

    def click(self, selector):
        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def assert_fits(self):
        """The page fits the device's width (not the window's, which a page without a
        mobile viewport widens to its own 980 px), and every control is a touch target
        at least 44 px high."""
        device = SIZES[self.SIZE][0]
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, 'meta[name="viewport"][content*="width=device-width"]'),
                        "the page has no mobile viewport")
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, device, f"the page is {width} px wide on a {device} px screen")
        small = self.driver.execute_script("""
            return [...document.querySelectorAll('button, select, a[href], input[type=submit]')]
                .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
                .map(e => e.tagName + ' ' + (e.textContent || e.name || '').trim().slice(0, 30) + ' ' + e.getBoundingClientRect().height);""")
        self.assertEqual(small, [], "touch targets under 44 px")

    def test_every_page_fits(self):
        """The pages the other tests do not reach: the wallet's result and error pages,
        the dashboard's error page, and the simulated app's error page."""
        charge_id, charge_token, _ = create()
        confirmed = api("POST", "/v1/charges/" + charge_token, CLIENT, {"payment": {"method": "alipay"}})
        self.driver.get(confirmed["data"]["next_action"]["url"])
        self.click("button.pay")
        self.wait_for(charge_id, "succeeded")
        self.assert_fits()   # the result page, or the merchant's page it redirected to
        self.driver.get(confirmed["data"]["next_action"]["url"] + "x")
        self.assert_fits()   # the wallet's error page
        parts = urlsplit(BASE)
        self.driver.get(f"{parts.scheme}://merchant:{KEY}@{parts.netloc}/sandbox/dashboard")
        self.driver.execute_script("""
            const form = document.createElement('form'); form.method = 'post'; form.action = '/sandbox/dashboard';
            for (const [k, v] of [['form_token', document.querySelector('input[name=form_token]').value], ['action', 'resend'], ['ipn', '999999']]) {
                const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v; form.appendChild(i); }
            document.body.appendChild(form); form.submit();""")
        WebDriverWait(self.driver, 10).until(lambda d: "Cannot do that" in d.page_source)
        self.assert_fits()   # the dashboard's error page
        self.driver.get(BASE + "/apps/open?url=" + quote("https://not-an-app.example/" + "x" * 300, safe=""))
        self.assert_fits()   # the simulated app's error page
        # Each registered app's page, its description made long where it takes one.
        listed = chargekit("request", "--examples", "json")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        for row in json.loads(listed.stdout):
            arguments = [("Flat white " + "n" * 150) if a == "Flat white" else a for a in row["arguments"]]
            made = chargekit("request", *arguments)
            self.assertEqual(made.returncode, 0, made.stderr)
            self.driver.get(BASE + "/apps/open?url=" + quote(made.stdout.strip().splitlines()[-1], safe=""))
            self.assert_fits()   # the app's page, long values and all

    def test_confirmed_charge_pay_decline_cancel(self):
        for button, expected in (("pay", "succeeded"), ("decline", "failed"), ("cancel", "canceled")):
            charge_id, charge_token, _ = create()
            confirmed = api("POST", "/v1/charges/" + charge_token, CLIENT, {"payment": {"method": "alipay"}})
            self.driver.get(confirmed["data"]["next_action"]["url"])
            self.assertEqual(self.driver.find_element(By.ID, "status").text, "pending")
            self.assert_fits()
            self.click("button." + button)
            self.wait_for(charge_id, expected)

    def test_unconfirmed_charge_is_payable_from_its_link(self):
        # The desktop QR flow: the QR page links the wallet; nobody confirmed the charge.
        charge_id, _, links = create()
        self.driver.get(links["desktop"])
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#qr svg"))
        self.assert_fits()
        self.driver.find_element(By.CSS_SELECTOR, "a").click()
        self.click("button.pay")
        self.wait_for(charge_id, "succeeded")

    def test_method_chosen_on_the_page(self):
        charge_id, _, links = create(method=None)
        self.driver.get(links["mobile_browser"])
        Select(self.driver.find_element(By.NAME, "method")).select_by_value("card")
        self.assert_fits()
        self.click("button.pay")
        self.wait_for(charge_id, "authorized")

    def test_dashboard_buttons(self):
        expired_id, _, _ = create()
        refunded_id, token, _ = create()
        api("POST", "/v1/charges/" + token, CLIENT, {"payment": {"method": "alipay"}})
        parts = urlsplit(BASE)
        # A person types the key into the browser's Basic prompt; the URL form does the same.
        self.driver.get(f"{parts.scheme}://merchant:{KEY}@{parts.netloc}/sandbox/dashboard")
        self.assert_fits()
        self.click(f"#charge-{expired_id} button")  # Expire: the only button of an initiated charge
        self.wait_for(expired_id, "expired")
        WebDriverWait(self.driver, 10).until(lambda d: "expired" in d.find_element(By.CSS_SELECTOR, f"#charge-{expired_id} .badge").text)
        self.click(f"#charge-{refunded_id} button.pay")
        self.wait_for(refunded_id, "succeeded")
        api("POST", "/v1/refunds", SERVER, {"id": refunded_id, "reference": "refund-" + uuid.uuid4().hex, "amount": 500})
        self.driver.get(f"{parts.scheme}://merchant:{KEY}@{parts.netloc}/sandbox/dashboard")
        history = self.driver.find_element(By.CSS_SELECTOR, f"#charge-{refunded_id} .history").text
        self.assertIn("refunded 5.00 USD", history)
        self.assert_fits()

    def test_landing_page(self):
        self.driver.get(BASE + "/")
        self.assert_fits()
        self.assertIn("sandbox", self.driver.title.lower())
        self.assertEqual(self.driver.find_element(By.ID, "openapi").get_attribute("href"), BASE + "/openapi.yaml")
        self.click("#docs")
        self.assertIn("# Running the sandbox", self.driver.find_element(By.TAG_NAME, "body").text)

    def test_cross_site_posts_are_refused(self):
        charge_id, _, links = create()
        self.driver.get(links["mobile_browser"])
        token = self.driver.find_element(By.NAME, "form_token").get_attribute("value")
        # The form's own attribute (its `action` property is the input named "action").
        action = urljoin(self.driver.current_url, self.driver.find_element(By.ID, "pay").get_attribute("action"))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            for policy in ("", '<meta name="referrer" content="no-referrer">'):
                Attacker.page = (f'<html><head>{policy}</head><body><form id="f" method="post" action="{action}">'
                                 f'<input name="form_token" value="{token}"><input name="action" value="pay"></form>'
                                 '<script>document.getElementById("f").submit()</script></body></html>')
                self.driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
                WebDriverWait(self.driver, 10).until(lambda d: "Cannot continue" in d.page_source)
                self.assertTrue(self.driver.current_url.startswith(BASE), "the post reached the sandbox")
                self.assertEqual(status(charge_id), "initiated")
        finally:
            server.shutdown()


class App(http.server.BaseHTTPRequestHandler):
    """The calling app's universal link: records each callback URL the browser opens."""
    opened = []

    def do_GET(self):
        App.opened.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html><body>back in the app</body></html>")

    def log_message(self, *arguments):
        pass


def chargekit(*arguments):
    return subprocess.run([CHARGEKIT, *arguments], capture_output=True, text=True, timeout=60)


class AppSimulatorPages(unittest.TestCase):
    """/apps/open at a phone's size: each app's request, made by chargekit with a file
    ledger, opened as SandboxAppOpener opens it, approved with its button; the browser
    follows the 303 to the app's (https-style) callback URL, and the callback is
    verified against the ledger by another process."""
    SIZE = "phone"

    @classmethod
    def setUpClass(cls):
        cls.driver = browser(*SIZES[cls.SIZE])
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), App)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.folder = tempfile.mkdtemp()
        os.chmod(cls.folder, 0o700)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.shutdown()

    def examples(self):
        """Every registered app's example request (chargekit request --examples): the apps come from the registry."""
        back = f"http://127.0.0.1:{self.server.server_address[1]}/done"
        listed = chargekit("request", "--examples", "json", "--example-callback", back)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        return {row["provider"]: row["arguments"] for row in json.loads(listed.stdout)}

    def request(self, provider, ledger):
        arguments = self.examples()[provider]
        made = chargekit("request", *arguments, "--ledger", ledger)
        self.assertEqual(made.returncode, 0, made.stderr)
        return made.stdout.strip().splitlines()[-1]

    def play(self, provider, button, outcome):
        ledger = os.path.join(self.folder, f"{provider}-{button}.ledger")
        url = self.request(provider, ledger)
        App.opened.clear()
        self.driver.get(BASE + "/apps/open?url=" + quote(url, safe=""))
        self.assertIn("12.50", self.driver.find_element(By.ID, "amount").text)
        if "Flat white" in self.examples()[provider]:
            self.assertEqual(self.driver.find_element(By.ID, "description").text, "Flat white")
        width = self.driver.execute_script("return document.documentElement.scrollWidth")
        self.assertLessEqual(width, SIZES[self.SIZE][0], "the page fits the device")
        self.driver.find_element(By.CSS_SELECTOR, f'button[value="{button}"]').click()
        WebDriverWait(self.driver, 10).until(lambda _: App.opened)
        callback = f"http://127.0.0.1:{self.server.server_address[1]}" + App.opened[0]
        parsed = chargekit("parse", callback, "--ledger", ledger, "--json")
        self.assertEqual(parsed.returncode, 0, parsed.stderr)
        report = json.loads(parsed.stdout)
        self.assertEqual((report["verified"], report["outcome"], report["provider"]), (True, outcome, provider))

    def scenarios(self):
        """Every app's scenarios with the outcome the catalog states (chargekit scenarios
        --json; the sandbox's own, for its API, are left out)."""
        listed = chargekit("scenarios", "--json")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        return [row for row in json.loads(listed.stdout) if row["provider"] != "sandbox"]

    def test_each_app_approved_and_verified_in_a_ledger(self):
        providers = list(self.examples())
        self.assertEqual(set(providers), {row["provider"] for row in self.scenarios()}, "an app without an example request")
        for provider in providers:
            with self.subTest(provider=provider):
                self.play(provider, "approved", "approved")

    def test_a_scenario_button_gives_its_outcome(self):
        """Each app's cancellation button, read as its catalog states (an app without a cancelled status reads it as declined)."""
        stated = {row["provider"]: row["outcome"] for row in self.scenarios() if row["name"] == "cancelled"}
        self.assertEqual(set(stated), set(self.examples()), "every app has a cancellation scenario")
        for provider, outcome in stated.items():
            with self.subTest(provider=provider):
                self.play(provider, "cancelled", outcome)
        # And each app's first failure of its own (an error code, a technical error…).
        failures = {}
        for row in self.scenarios():
            if row["outcome"] == "failed":
                failures.setdefault(row["provider"], row["name"])
        self.assertEqual(set(failures), set(self.examples()), "every app has a failure scenario")
        for provider, name in failures.items():
            with self.subTest(provider=provider, scenario=name):
                self.play(provider, name, "failed")


class PhonePages(Pages, unittest.TestCase):
    SIZE = "phone"


class DesktopPages(Pages, unittest.TestCase):
    SIZE = "desktop"


if __name__ == "__main__":
    unittest.main(verbosity=2)
