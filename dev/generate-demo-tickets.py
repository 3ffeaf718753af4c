#!/usr/bin/env python3
"""Generates the bundled demo dataset (deterministic: fixed seed, no network).

Writes
  quotaflow-testkit/src/main/resources/demo/tickets.jsonl  one ticket JSON per line (plus 4 malformed lines and
                                         one ticket far over any model's context budget)
  quotaflow-testkit/src/main/resources/demo/labels.jsonl   the (category, urgency) each ticket was written to have

Run from the repository root:  python3 dev/generate-demo-tickets.py
Re-running produces byte-identical files; change SEED (or the templates) to get another set.
"""

import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

SEED = 20251103
NORMAL_TICKETS = 495          # T-00001 .. T-00495
PRIORITY_COUNTS = {"interactive": 74, "standard": 223, "bulk": 198}   # ~15 % / 45 % / 40 %
PORTUGUESE_SHARE = 0.35
LONG_SHARE = 0.05             # bodies of 2-6 k characters (logs, email threads)
CHAT_SHORT_SHARE = 0.03       # one-liners typed into a chat widget
NO_SUBJECT_SHARE = 0.02       # chat tickets without a subject (body only: still valid)
METADATA_SHARE = 0.6
HUGE_BODY_CHARS = 700_000
START = datetime(2025, 11, 3, 6, 0, 0, tzinfo=timezone.utc)

# Where the special lines go (1-based line numbers in the output file).
SPECIAL_LINES = {
    17: "not-json",
    133: "array",
    250: "no-id",
    377: "no-text",
    421: "huge",
}

CATEGORIES = ["billing", "technical", "account", "shipping", "other"]
CATEGORY_WEIGHTS = [24, 27, 20, 19, 10]
URGENCY_WEIGHTS = {  # by priority class: low, medium, high, critical
    "interactive": [10, 30, 40, 20],
    "standard": [22, 42, 27, 9],
    "bulk": [42, 40, 14, 4],
}
URGENCIES = ["low", "medium", "high", "critical"]

# --------------------------------------------------------------------------------------------
# Tenants: who runs the help desk, their products, their order-number style, their language.
# --------------------------------------------------------------------------------------------
TENANTS = {
    "acme": dict(items=['Rocket Skates', 'anvil', 'portable hole kit', 'giant magnet'], lang="en", domain="acme.com", order="AC-{d6}", currency="USD",
                 products=["Acme Rocket Skates", "Acme Cloud Drive", "the Acme mobile app", "Acme Anvil Pro"],
                 plans=["Basic", "Plus", "Business"]),
    "globex": dict(items=['Router X2', 'mesh extender', 'network switch'], lang="en", domain="globex.io", order="GX{d7}", currency="USD",
                   products=["Globex Analytics", "the Globex Router X2", "Globex Portal", "Globex Sync agent"],
                   plans=["Team", "Enterprise", "Starter"]),
    "initech": dict(items=['label printer', 'red stapler', 'ergonomic chair'], lang="en", domain="initech.com", order="INI-{d5}", currency="USD",
                    products=["Initech Payroll", "the TPS Reports module", "Initech HR Portal", "Initech Timesheets"],
                    plans=["Standard", "Premium"]),
    "umbrella": dict(items=['blood pressure monitor', 'glucose test kit', 'thermometer'], lang="en", domain="umbrella-health.com", order="UMB{d6}", currency="GBP",
                     products=["the Umbrella Health app", "the lab results portal", "Umbrella Telecare", "the appointment scheduler"],
                     plans=["Family", "Individual", "Corporate"]),
    "hooli": dict(items=['Hooli Phone', 'HooliBox speaker', 'phone charger'], lang="en", domain="hooli.xyz", order="HO-{d8}", currency="USD",
                  products=["HooliMail", "the Hooli Phone", "the Nucleus API", "Hooli Chat"],
                  plans=["Free", "Pro", "Enterprise"]),
    "stark-retail": dict(items=['Home Hub', 'StarkFit band', 'smart lamp', 'electric kettle'], lang="en", domain="starkretail.com", order="SR-{d6}", currency="EUR",
                         products=["the Stark Home Hub", "the StarkFit band", "the Stark online store", "Stark Rewards"],
                         plans=["Member", "Gold"]),
    "vandelay": dict(items=['case of latex gloves', 'sample pack', 'pallet of import samples'], lang="en", domain="vandelay.co", order="VI-{d6}", currency="USD",
                     products=["Vandelay Import Tracker", "the customs broker portal", "Vandelay EDI gateway"],
                     plans=["Importer", "Importer Plus"]),
    "lojas-sol": dict(items=['air fryer', 'smart TV 50 polegadas', 'tênis de corrida', 'liquidificador'], lang="pt", domain="lojassol.com.br", order="LS{d8}", currency="BRL",
                      products=["o app Lojas Sol", "o cartão Sol", "o site lojassol.com.br", "o programa Sol Pontos"],
                      plans=["Sol Prime", "Sol Básico"]),
    "banco-aurora": dict(items=['cartão Aurora Platinum', 'maquininha Aurora', 'token físico'], lang="pt", domain="bancoaurora.com.br", order="AUR-{d6}", currency="BRL",
                         products=["o app Aurora", "o cartão Aurora Platinum", "o internet banking", "o Pix"],
                         plans=["Conta Digital", "Aurora Empresas"]),
    "padaria-pao-quente": dict(items=['cesta de café da manhã', 'bolo de aniversário', 'kit de pães congelados'], lang="pt", domain="paoquente.com.br", order="PQ-{d5}", currency="BRL",
                               products=["a assinatura Café da Manhã", "o app Pão Quente", "o delivery", "o cartão fidelidade"],
                               plans=["Assinatura Semanal", "Assinatura Mensal"]),
    "construtora-horizonte": dict(items=['kit de chaves do apartamento', 'manual do proprietário', 'controle do portão'], lang="pt", domain="horizonte.eng.br", order="CH-{d6}", currency="BRL",
                                  products=["o portal do cliente Horizonte", "o boleto da parcela", "o app Meu Apê", "a área de documentos"],
                                  plans=["Plano Chaves", "Plano Obra"]),
    "farmacia-vida": dict(items=['remédios de uso contínuo', 'kit de primeiros socorros', 'medidor de pressão'], lang="pt", domain="farmaciavida.com.br", order="FV{d7}", currency="BRL",
                          products=["o app Farmácia Vida", "o programa Vida+", "a entrega expressa", "o site farmaciavida.com.br"],
                          plans=["Vida+ Clássico", "Vida+ Família"]),
}
TENANTS_BY_LANG = {
    "en": ["acme", "globex", "initech", "umbrella", "hooli", "stark-retail", "vandelay"],
    "pt": ["lojas-sol", "banco-aurora", "padaria-pao-quente", "construtora-horizonte", "farmacia-vida"],
}
TENANT_WEIGHTS = {
    "en": [22, 18, 12, 12, 14, 14, 8],
    "pt": [30, 25, 12, 13, 20],
}

FIRST_NAMES = {
    "en": ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
           "William", "Susan", "Richard", "Jessica", "Thomas", "Sarah", "Priya", "Wei", "Ahmed", "Olga", "Kenji",
           "Fatima", "Liam", "Chloe", "Noah", "Emma", "Mateo", "Aisha", "Ravi", "Hannah"],
    "pt": ["João", "Maria", "José", "Ana", "Carlos", "Francisca", "Paulo", "Antônia", "Lucas", "Adriana",
           "Pedro", "Juliana", "Marcos", "Márcia", "Rafael", "Fernanda", "Gustavo", "Patrícia", "Bruno", "Aline",
           "Thiago", "Camila", "Rodrigo", "Letícia", "Felipe", "Beatriz", "Diego", "Larissa", "Vinícius", "Gabriela"],
}
LAST_NAMES = {
    "en": ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Wilson", "Anderson",
           "Taylor", "Thomas", "Moore", "Martin", "Lee", "Thompson", "White", "Harris", "Clark", "Patel", "Nguyen",
           "Kowalski", "O'Brien", "Schmidt", "Tanaka"],
    "pt": ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
           "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa",
           "Rocha", "Dias", "Nascimento", "Andrade", "Moreira"],
}
CARRIERS = {"en": ["UPS", "FedEx", "USPS", "DHL", "Royal Mail", "DPD"],
            "pt": ["Correios", "Jadlog", "Loggi", "Total Express", "Azul Cargo", "Sequoia"]}
CITIES = {"en": ["Memphis", "Louisville", "Chicago", "Newark", "Leeds", "Dallas", "Rotterdam", "Denver", "Phoenix"],
          "pt": ["Cajamar", "Curitiba", "Recife", "Belo Horizonte", "Campinas", "Porto Alegre", "Salvador",
                 "Barueri", "Fortaleza", "Goiânia"]}
OSES = ["Android 14", "Android 13", "iOS 18.1", "iOS 17.6", "Windows 11", "macOS 15.1", "Chrome 130 on Windows",
        "Safari on iPad", "Firefox 132", "Ubuntu 24.04"]
ERROR_CODES = ["E1042", "E2207", "E3001", "ERR_PAYMENT_DECLINED", "ERR_SESSION_EXPIRED", "HTTP 502", "HTTP 500",
               "HTTP 429", "HTTP 403", "0x80070005", "ECONNRESET", "SSL_ERROR_HANDSHAKE_FAILURE_ALERT",
               "TIMEOUT_GATEWAY", "E-INV-017", "SYNC_CONFLICT_409", "ERR_TOKEN_INVALID", "E5100", "DB_LOCK_TIMEOUT"]

# --------------------------------------------------------------------------------------------
# Scenarios: (category, allowed urgencies, subjects, openings). Text is combined with detail
# sentences, an urgency cue, greetings and closings, so bodies differ even for one scenario.
# --------------------------------------------------------------------------------------------
SCENARIOS = {"en": [], "pt": []}


ERRORS = {
    "payment": ["ERR_PAYMENT_DECLINED", "card_declined", "HTTP 502", "TIMEOUT_GATEWAY", "E2207", "3DS_AUTH_FAILED"],
    "api": ["HTTP 500", "HTTP 502", "HTTP 503", "HTTP 429", "ECONNRESET", "SSL_ERROR_HANDSHAKE_FAILURE_ALERT", "ERR_TOKEN_INVALID"],
    "sync": ["SYNC_CONFLICT_409", "DB_LOCK_TIMEOUT", "E1042", "ERR_TOKEN_INVALID", "E3001"],
    "export": ["HTTP 504", "E5100", "DB_LOCK_TIMEOUT", "E-EXP-017", "OutOfMemoryError"],
    "app": ["E1042", "0x80070005", "ERR_SESSION_EXPIRED", "SIGSEGV", "E3001"],
    "billing": ["card_declined", "insufficient_funds", "expired_card", "ERR_PAYMENT_DECLINED", "do_not_honor"],
}


def scenario(lang, cat, urgencies, subjects, openings, errors=None):
    """errors: a key of ERRORS for scenarios that show an error code; None keeps error talk out."""
    SCENARIOS[lang].append(dict(cat=cat, urg=urgencies.split(), subjects=subjects, openings=openings, errors=errors))


# ---- English ----
scenario("en", "billing", "medium high critical",
         ["Charged twice for order {order}", "Duplicate charge on my card", "Double billing this month?",
          "Two identical charges of {amount}"],
         ["I was charged twice for order {order}: two charges of {amount} on my card ending {last4} on {date}.",
          "My statement shows the same {amount} charge two times for {product}, both dated {date}.",
          "Your system billed my card ending in {last4} twice for the {plan} plan."])
scenario("en", "billing", "low medium high",
         ["Refund still not received", "Where is my refund for {order}?", "Refund for returned item",
          "Refund of {amount} missing"],
         ["I returned order {order} on {date} and was told the refund of {amount} would take 5 business days. It has been almost three weeks.",
          "Your agent confirmed a refund of {amount} for {order} but nothing has arrived on my card ending {last4}.",
          "I cancelled {product} within the trial period and I am still waiting for the {amount} refund."])
scenario("en", "billing", "low medium",
         ["Invoice {invoice} shows the wrong VAT number", "Need a copy of invoice {invoice}",
          "Company name wrong on invoice", "Please resend invoice {invoice}"],
         ["The invoice {invoice} you sent for {date} has our old company address and VAT number.",
          "Our accounting department needs a PDF copy of invoice {invoice} for the {plan} subscription.",
          "Could you reissue invoice {invoice} with the purchase order number PO-{d5} on it?"])
scenario("en", "billing", "low medium",
         ["Why did my plan price go up?", "Unexpected price increase", "Question about renewal amount",
          "Renewal quote looks wrong"],
         ["My {plan} plan renewed at {amount}, which is more than last year, and I never got a notice about a price change.",
          "We have {n_users} seats on {product} but the renewal quote charges for {n_users_plus} seats.",
          "I'd like to understand the line items on my latest bill for {product}; there is a 'service fee' I don't recognise."])
scenario("en", "billing", "high critical",
         ["Payment failed and account suspended", "Card declined - service cut off", "Account suspended for non-payment??",
          "Our subscription was suspended"],
         ["Our payment for the {plan} plan failed with {error} and now {product} is suspended for the whole company.",
          "The card on file expired, the renewal failed and our {n_users} users were locked out this morning.",
          "We updated the card ending {last4} yesterday but the account still shows 'suspended - payment overdue'."], errors="billing")
scenario("en", "billing", "low medium",
         ["Cancel my subscription", "Stop charging me", "How do I downgrade?", "Cancel auto-renewal"],
         ["Please cancel my {plan} subscription for {product} effective at the end of this billing cycle.",
          "I want to downgrade from {plan} to the free tier; I can't find the option in the billing page.",
          "I keep getting charged {amount} a month for {product} that I stopped using in {month}."])
scenario("en", "technical", "medium high",
         ["App crashes on startup", "{product} keeps crashing after update", "Crash when opening the app",
          "App closes immediately on {os}"],
         ["Since the update to version {version}, {product} crashes right after the splash screen on {os}.",
          "{product} closes by itself whenever I open the orders tab. I'm on {os}, app version {version}.",
          "After yesterday's update the app freezes for a few seconds and then crashes."], errors="app")
scenario("en", "technical", "high critical",
         ["Checkout failing with {error}", "Customers can't pay - {error}", "Checkout broken!!", "Payment page errors"],
         ["Our customers are getting {error} on the payment step of checkout. Nobody has been able to complete an order since {time}.",
          "The checkout page of {product} returns {error} for every card payment, production is down.",
          "Every checkout attempt fails with {error}. Roughly {pct}% of sessions are affected right now."], errors="payment")
scenario("en", "technical", "medium high critical",
         ["API returning {error}", "Intermittent {error} from the API", "Timeouts on the orders endpoint",
          "Webhook calls failing"],
         ["Calls to the /v2/orders endpoint of {product} return {error} about {pct}% of the time since {time}.",
          "Our integration started failing: the API answers {error} and the request id is {reqid}.",
          "Webhook deliveries to our endpoint have stopped; the dashboard shows {error} for the last {n} attempts."], errors="api")
scenario("en", "technical", "low medium high",
         ["Data not syncing", "Sync stuck at 0%", "Inventory sync not updating", "Sync error {error}"],
         ["{product} stopped syncing with our warehouse system; the last successful sync was on {date}.",
          "The sync job shows {error} and the stock levels on the website are out of date.",
          "Changes I make on the desktop do not show up on my phone anymore."], errors="sync")
scenario("en", "technical", "low",
         ["Typo in the dashboard", "Small UI glitch", "Dark mode text unreadable", "Tooltip cut off"],
         ["Minor thing: the 'Recieved' label on the orders dashboard is misspelled.",
          "In dark mode the footer text of {product} is dark grey on black and hard to read.",
          "The tooltip on the export button is cut off on smaller screens ({os})."])
scenario("en", "technical", "low medium",
         ["{product} is very slow", "Pages take forever to load", "Slow reports", "Performance degradation"],
         ["Loading the reports page in {product} takes over {n} seconds since last week.",
          "Everything in {product} feels sluggish today; searches take 10-20 seconds.",
          "The monthly export used to take a minute and now it runs for almost an hour."])
scenario("en", "technical", "low medium",
         ["How do I configure SSO?", "Question about API rate limits", "Help setting up the integration",
          "Where do I find my API key?"],
         ["We are setting up {product} and want to connect it to our identity provider via SAML. Is there a guide?",
          "What are the rate limits of the public API on the {plan} plan? We plan to import about {n_big} records.",
          "I'm trying to connect {product} to our ERP and don't understand which webhook events to subscribe to."])
scenario("en", "technical", "medium high",
         ["Export fails with {error}", "CSV export broken", "Report download error", "Can't download data"],
         ["Exporting orders to CSV fails with {error} after about a minute.",
          "The download of the quarterly report in {product} stops at 99% and then shows {error}.",
          "I need the data export for an audit and it keeps failing with {error}."], errors="export")
scenario("en", "account", "medium high",
         ["Can't log in", "Password reset email never arrives", "Login not working", "Locked out of my account"],
         ["I can't log in to {product}. I requested a password reset three times but no email arrives at {email}.",
          "Login fails with 'invalid credentials' even though I just reset my password.",
          "The login page just reloads when I enter my password; no error is shown."])
scenario("en", "account", "high critical",
         ["Lost my phone - 2FA", "Can't get 2FA code", "Two-factor authentication problem", "New phone, no authenticator"],
         ["I got a new phone and lost access to my authenticator app, so I can't get the 2FA code for {product}.",
          "The SMS with the verification code never arrives on my new number, and I'm locked out.",
          "I'm the only admin and my 2FA device was stolen. I need to get back into the account."])
scenario("en", "account", "high critical",
         ["Suspicious login on my account", "Account hacked?", "Someone changed my email", "Unauthorized access"],
         ["I received an alert about a login from {city_far} that wasn't me, and now my password doesn't work.",
          "Someone changed the email on my account to an address I don't know and placed an order {order}.",
          "There are API keys in our account that none of us created, and one of them was used at {time}."])
scenario("en", "account", "low",
         ["Change the email on my account", "Update my name", "Change account owner", "Update company details"],
         ["I'd like to change the login email of my account from {email} to my new work address.",
          "I got married and would like to update the name on my profile.",
          "Our office manager left; please transfer account ownership to {name2}."])
scenario("en", "account", "medium",
         ["Delete my account and data", "GDPR data request", "Request a copy of my personal data", "Close my account"],
         ["Under GDPR I'm requesting a copy of all personal data you hold about me ({email}).",
          "Please delete my account and all associated data. I no longer use {product}.",
          "I want to close my account permanently and make sure my payment details are removed."])
scenario("en", "account", "low medium",
         ["Add users to our team", "Permission problem for a colleague", "Can't invite new members", "Seat limit reached?"],
         ["I'm trying to invite {n} colleagues to our workspace but the invite button is greyed out.",
          "A colleague with the 'editor' role can't see the billing page even though she should.",
          "We have {n_users} seats on the {plan} plan but it says we reached the limit at {n_users_minus}."])
scenario("en", "shipping", "medium high",
         ["Package hasn't arrived", "Order {order} not delivered", "Where is my order?", "Tracking stuck"],
         ["My order {order} was supposed to arrive on {date} but tracking {tracking} with {carrier} hasn't moved in {days} days.",
          "The tracking for {order} shows 'in transit' in {city} since {date}.",
          "I ordered a {item} {days} days ago and still have no delivery and no updates."])
scenario("en", "shipping", "medium",
         ["Wrong item received", "Received someone else's order", "Wrong size in my package", "Missing item in order {order}"],
         ["I received my package for order {order} today but it contains the wrong item.",
          "My order {order} arrived with only two of the three items I paid for.",
          "The box had a different colour than the one I ordered; I need an exchange."])
scenario("en", "shipping", "medium high",
         ["Package arrived damaged", "Broken item in delivery", "Damaged box", "Item broken on arrival"],
         ["Order {order} arrived today and the box was crushed; the {item} inside is cracked.",
          "The delivery from {carrier} came with water damage and the {item} doesn't work.",
          "My package was left open at the door and one item is broken."])
scenario("en", "shipping", "medium high critical",
         ["Change delivery address", "Wrong address on order {order}", "Redirect my package", "Need to change shipping address ASAP"],
         ["I entered my old address for order {order}. Can you change the delivery address before it ships?",
          "Please redirect package {tracking} to my office; nobody will be at home this week.",
          "The courier is heading to the wrong address for order {order} and I need it delivered to the right place."])
scenario("en", "shipping", "low",
         ["Delivery time question", "Do you ship to Canada?", "Shipping cost question", "When will my pre-order ship?"],
         ["How long does standard shipping usually take to {city}?",
          "Do you ship internationally, and are customs duties included in the price?",
          "I pre-ordered the {item}; is there an estimated shipping date yet?"])
scenario("en", "shipping", "medium high",
         ["Package held at customs", "Customs fee request", "Shipment stuck in customs", "Import duty question"],
         ["My package {tracking} is held at customs and {carrier} is asking me to pay a fee of {amount}.",
          "Shipment for order {order} has been in customs clearance for {days} days.",
          "I received a letter saying my parcel will be returned unless I provide an invoice for customs."])
scenario("en", "other", "low",
         ["Feature request: dark mode", "Suggestion for the app", "Idea for improvement", "Feature request"],
         ["It would be great if {product} had a dark mode and keyboard shortcuts.",
          "Could you add an option to export reports to Excel directly?",
          "Suggestion: let us schedule reports to be emailed every Monday."])
scenario("en", "other", "low",
         ["Thank you!", "Great support", "Compliment for your agent", "Feedback"],
         ["Just wanted to say that {name2} from your support team was extremely helpful last week.",
          "I've been using {product} for two years and it keeps getting better. Thanks!",
          "Quick feedback: the new onboarding flow is much clearer than before."])
scenario("en", "other", "low medium",
         ["Partnership inquiry", "Reseller program", "Press inquiry", "Question about your company"],
         ["We are a distributor in {city} and would like to know about your reseller program.",
          "I'm a journalist writing about {product} and would like to ask a few questions.",
          "Do you offer discounts for non-profit organisations?"])
scenario("en", "other", "medium high",
         ["Complaint about your service", "Very disappointed", "Complaint about an agent", "Formal complaint"],
         ["I want to file a formal complaint about how my last contact with your support was handled.",
          "The agent on the phone hung up on me twice and no one called back as promised.",
          "I've written four times without a real answer, and I'm considering reporting this to consumer protection."])
scenario("en", "other", "high critical",
         ["Safety issue: device overheating", "Product caught fire", "Safety hazard with the {item}", "Burn injury from charger"],
         ["The charger that came with the {item} got so hot it melted the plug and left a burn mark on the desk.",
          "The {item} started smoking while plugged in last night; we unplugged it just in time.",
          "My son burned his hand on the {item}. Other customers need to be warned."])

# ---- Português ----
scenario("pt", "billing", "medium high critical",
         ["Cobrança em duplicidade", "Fui cobrado duas vezes", "Cobrança duplicada no cartão", "Duas cobranças de {amount}"],
         ["Fui cobrado duas vezes pelo pedido {order}: duas cobranças de {amount} no cartão final {last4} no dia {date}.",
          "Minha fatura mostra a mesma cobrança de {amount} duas vezes referente a {product}.",
          "Vocês debitaram duas vezes a mensalidade do {plan} no meu cartão final {last4}."])
scenario("pt", "billing", "low medium high",
         ["Estorno não recebido", "Cadê meu reembolso?", "Reembolso do pedido {order}", "Estorno de {amount} pendente"],
         ["Devolvi o pedido {order} no dia {date} e me disseram que o estorno de {amount} cairia em 5 dias úteis. Já são quase três semanas.",
          "O atendente confirmou o reembolso de {amount} do pedido {order}, mas até agora nada apareceu no cartão.",
          "Cancelei {product} dentro do prazo de arrependimento e ainda não recebi o estorno."])
scenario("pt", "billing", "low medium",
         ["Nota fiscal com CNPJ errado", "Preciso da segunda via da nota fiscal", "Segunda via do boleto",
          "Nota fiscal {invoice}"],
         ["A nota fiscal {invoice} saiu com o CNPJ antigo da empresa, preciso que seja reemitida.",
          "Preciso da segunda via do boleto com vencimento em {date}, não recebi por e-mail.",
          "Nosso financeiro está pedindo a nota fiscal {invoice} em PDF e XML."])
scenario("pt", "billing", "low medium",
         ["Aumento no valor da mensalidade", "Por que o valor mudou?", "Dúvida sobre a fatura", "Cobrança que não reconheço"],
         ["A mensalidade do {plan} veio {amount} este mês e não recebi nenhum aviso de reajuste.",
          "Tem uma 'taxa de serviço' na minha fatura de {product} que eu não reconheço.",
          "Gostaria de entender os itens da última fatura, o valor está diferente do contratado."])
scenario("pt", "billing", "high critical",
         ["Pagamento recusado e conta bloqueada", "Serviço suspenso por falta de pagamento", "Boleto pago e conta bloqueada",
          "Conta suspensa indevidamente"],
         ["Paguei o boleto no dia {date}, mas {product} continua bloqueado por 'pagamento em atraso'.",
          "O pagamento da renovação falhou com o erro {error} e agora toda a equipe está sem acesso.",
          "Atualizamos o cartão final {last4} ontem, mas a conta continua suspensa e não conseguimos emitir pedidos."], errors="billing")
scenario("pt", "billing", "low medium",
         ["Cancelar assinatura", "Quero cancelar o plano", "Parem de me cobrar", "Como faço downgrade?"],
         ["Quero cancelar {product} a partir do próximo ciclo, não consigo achar a opção no app.",
          "Continuo sendo cobrado {amount} por mês por {product}, que cancelei em {month}.",
          "Gostaria de mudar do {plan} para um plano mais barato."])
scenario("pt", "technical", "medium high",
         ["App fechando sozinho", "{product} trava ao abrir", "Erro ao abrir o aplicativo", "App não abre depois da atualização"],
         ["Depois da atualização para a versão {version}, {product} fecha sozinho logo depois da tela inicial ({os}).",
          "{product} trava toda vez que abro a aba de pedidos. Uso {os}.",
          "O aplicativo fica carregando infinitamente e depois fecha."], errors="app")
scenario("pt", "technical", "high critical",
         ["Erro {error} no checkout", "Clientes não conseguem pagar", "Checkout fora do ar!!", "Pix não está funcionando"],
         ["Nossos clientes estão recebendo {error} na etapa de pagamento. Ninguém consegue finalizar compra desde {time}.",
          "O Pix está dando erro {error} para todos os clientes, as vendas pararam.",
          "Todas as tentativas de pagamento com cartão falham com {error}, cerca de {pct}% das sessões afetadas."], errors="payment")
scenario("pt", "technical", "medium high critical",
         ["API retornando {error}", "Erro intermitente na API", "Timeout na integração", "Webhooks falhando"],
         ["As chamadas ao endpoint /v2/pedidos retornam {error} em {pct}% das vezes desde {time}.",
          "Nossa integração com {product} começou a falhar com {error}, request id {reqid}.",
          "Os webhooks pararam de chegar no nosso servidor; o painel mostra {error} nas últimas {n} tentativas."], errors="api")
scenario("pt", "technical", "low medium high",
         ["Sincronização parada", "Estoque não atualiza", "Erro de sincronização {error}", "Dados não sincronizam"],
         ["{product} parou de sincronizar com o nosso ERP; a última sincronização foi em {date}.",
          "A sincronização mostra {error} e o estoque no site está desatualizado.",
          "O que eu altero no computador não aparece mais no celular."], errors="sync")
scenario("pt", "technical", "low",
         ["Erro de digitação no painel", "Pequeno problema visual", "Texto cortado no app", "Sugestão de correção"],
         ["Coisa pequena: o botão 'Confirmar' está escrito 'Comfirmar' na tela de pedidos.",
          "No modo escuro o texto do rodapé de {product} fica quase invisível.",
          "O texto do botão de exportar aparece cortado em telas menores."])
scenario("pt", "technical", "low medium",
         ["{product} muito lento", "Sistema lento hoje", "Relatórios demorando", "Lentidão no site"],
         ["O carregamento dos relatórios em {product} está levando mais de {n} segundos desde a semana passada.",
          "Tudo está muito lento hoje, as buscas demoram de 10 a 20 segundos.",
          "A exportação mensal que levava um minuto agora demora quase uma hora."])
scenario("pt", "technical", "low medium",
         ["Como configurar o SSO?", "Dúvida sobre limites da API", "Ajuda com integração", "Onde encontro minha chave de API?"],
         ["Estamos implantando {product} e queremos integrar com nosso provedor de identidade via SAML. Existe algum guia?",
          "Quais são os limites de requisições da API no plano {plan}? Vamos importar uns {n_big} registros.",
          "Não entendi quais eventos de webhook devo assinar para integrar com o nosso ERP."])
scenario("pt", "technical", "medium high",
         ["Exportação falha com {error}", "Não consigo baixar o relatório", "Erro ao exportar CSV", "Download do extrato com erro"],
         ["A exportação de pedidos em CSV falha com {error} depois de mais ou menos um minuto.",
          "O download do extrato trimestral para em 99% e mostra {error}.",
          "Preciso exportar os dados para uma auditoria e continua falhando com {error}."], errors="export")
scenario("pt", "account", "medium high",
         ["Não consigo fazer login", "E-mail de redefinição de senha não chega", "Erro ao entrar na conta", "Acesso bloqueado"],
         ["Não consigo entrar em {product}. Pedi para redefinir a senha três vezes e o e-mail não chega em {email}.",
          "O login dá 'usuário ou senha inválidos', mesmo depois de eu ter trocado a senha.",
          "Minha conta foi bloqueada depois de algumas tentativas erradas de senha."])
scenario("pt", "account", "high critical",
         ["Perdi o celular - autenticação em dois fatores", "Não recebo o código de verificação", "Problema com token", "Troquei de celular"],
         ["Troquei de celular e perdi o aplicativo autenticador, agora não consigo o código para entrar em {product}.",
          "O SMS com o código de verificação não chega no meu número novo e estou sem acesso.",
          "Sou o único administrador e meu celular com o token foi roubado. Preciso recuperar o acesso."])
scenario("pt", "account", "high critical",
         ["Acesso suspeito na minha conta", "Conta invadida", "Alguém alterou meu e-mail", "Compra que não fiz"],
         ["Recebi um alerta de acesso de {city_far} que não fui eu, e agora minha senha não funciona.",
          "Alguém trocou o e-mail da minha conta e fez o pedido {order} que eu não reconheço.",
          "Apareceu uma transferência Pix de {amount} que eu não fiz, acho que minha conta foi invadida."])
scenario("pt", "account", "low",
         ["Alterar e-mail da conta", "Atualizar meus dados", "Trocar o titular da conta", "Mudar telefone cadastrado"],
         ["Gostaria de alterar o e-mail de acesso de {email} para o meu novo e-mail.",
          "Mudei de endereço e preciso atualizar meus dados cadastrais.",
          "Nossa gerente saiu da empresa, por favor transfiram a titularidade para {name2}."])
scenario("pt", "account", "medium",
         ["Excluir minha conta (LGPD)", "Solicitação LGPD", "Quero meus dados pessoais", "Encerrar conta"],
         ["Com base na LGPD, solicito uma cópia de todos os dados pessoais que vocês têm sobre mim ({email}).",
          "Por favor, excluam minha conta e todos os meus dados. Não uso mais {product}.",
          "Quero encerrar minha conta definitivamente e garantir que os dados do meu cartão sejam apagados."])
scenario("pt", "account", "low medium",
         ["Adicionar usuários", "Permissão de um colega", "Não consigo convidar pessoas", "Limite de usuários"],
         ["Estou tentando convidar {n} colegas para o nosso espaço, mas o botão de convite está desativado.",
          "Uma colega com perfil 'editor' não consegue ver a tela de financeiro.",
          "Temos {n_users} licenças no {plan}, mas o sistema diz que o limite foi atingido com {n_users_minus}."])
scenario("pt", "shipping", "medium high",
         ["Pedido não chegou", "Pedido {order} atrasado", "Cadê minha encomenda?", "Rastreio parado"],
         ["Meu pedido {order} deveria ter chegado em {date}, mas o rastreio {tracking} dos {carrier} não atualiza há {days} dias.",
          "O rastreamento do pedido {order} mostra 'em trânsito' em {city} desde {date}.",
          "Comprei {item} há {days} dias e até agora nada de entrega nem atualização."])
scenario("pt", "shipping", "medium",
         ["Produto errado", "Recebi o pedido de outra pessoa", "Tamanho errado", "Faltou item no pedido {order}"],
         ["Recebi hoje o pedido {order}, mas veio o produto errado.",
          "Meu pedido {order} chegou só com dois dos três itens que paguei.",
          "A caixa veio com a cor diferente da que eu pedi, preciso trocar."])
scenario("pt", "shipping", "medium high",
         ["Produto chegou quebrado", "Encomenda avariada", "Caixa amassada", "Item danificado na entrega"],
         ["O pedido {order} chegou hoje com a caixa toda amassada e o produto está trincado.",
          "A entrega da {carrier} chegou molhada e o aparelho não liga.",
          "Deixaram o pacote aberto no portão e um item está quebrado."])
scenario("pt", "shipping", "medium high critical",
         ["Alterar endereço de entrega", "Endereço errado no pedido {order}", "Redirecionar entrega", "Preciso mudar o endereço urgente"],
         ["Coloquei o endereço antigo no pedido {order}. Dá para alterar antes do envio?",
          "Por favor, redirecionem a encomenda {tracking} para o meu trabalho, não vai ter ninguém em casa.",
          "O entregador está indo para o endereço errado com o pedido {order}."])
scenario("pt", "shipping", "low",
         ["Prazo de entrega", "Vocês entregam em Portugal?", "Valor do frete", "Quando meu pedido em pré-venda será enviado?"],
         ["Qual o prazo médio de entrega para {city}?",
          "Vocês fazem entrega internacional? O frete já inclui impostos?",
          "Comprei {item} na pré-venda, já tem previsão de envio?"])
scenario("pt", "shipping", "medium high",
         ["Encomenda retida na alfândega", "Taxa de importação", "Pacote parado na fiscalização", "Dúvida sobre imposto"],
         ["Minha encomenda {tracking} está retida na fiscalização aduaneira e os {carrier} pedem {amount} de taxa.",
          "O pedido {order} está em desembaraço aduaneiro há {days} dias.",
          "Recebi um aviso dizendo que o pacote será devolvido se eu não enviar a nota fiscal."])
scenario("pt", "other", "low",
         ["Sugestão: modo escuro", "Sugestão para o app", "Ideia de melhoria", "Pedido de funcionalidade"],
         ["Seria ótimo se {product} tivesse modo escuro e atalhos de teclado.",
          "Vocês poderiam adicionar a opção de exportar relatórios direto para Excel?",
          "Sugestão: permitir agendar relatórios para serem enviados toda segunda-feira."])
scenario("pt", "other", "low",
         ["Obrigado!", "Elogio ao atendimento", "Parabéns pelo suporte", "Feedback"],
         ["Só queria agradecer a {name2}, do suporte, que me ajudou muito na semana passada.",
          "Uso {product} há dois anos e está cada vez melhor. Obrigado!",
          "Feedback rápido: o novo cadastro ficou muito mais simples."])
scenario("pt", "other", "low medium",
         ["Parceria comercial", "Quero ser revendedor", "Contato para imprensa", "Dúvida sobre a empresa"],
         ["Somos um distribuidor em {city} e gostaríamos de saber sobre o programa de revendas.",
          "Sou jornalista e estou escrevendo uma matéria sobre {product}, posso fazer algumas perguntas?",
          "Vocês têm desconto para ONGs?"])
scenario("pt", "other", "medium high",
         ["Reclamação sobre o atendimento", "Muito insatisfeito", "Reclamação formal", "Vou abrir reclamação no Procon"],
         ["Quero registrar uma reclamação formal sobre como meu último atendimento foi conduzido.",
          "O atendente desligou na minha cara duas vezes e ninguém retornou como prometido.",
          "Já escrevi quatro vezes sem resposta e vou abrir uma reclamação no Procon e no Reclame Aqui."])
scenario("pt", "other", "high critical",
         ["Risco de segurança: aparelho superaquecendo", "Produto pegou fogo", "Perigo com o produto {item}", "Carregador derreteu"],
         ["O carregador que veio com o produto ({item}) esquentou tanto que derreteu a tomada.",
          "O produto ({item}) começou a soltar fumaça ontem à noite, desligamos da tomada a tempo.",
          "Meu filho se queimou com o produto ({item}). Outros clientes precisam ser avisados."])

DETAILS = {
    "en": {
        "billing": ["The transaction reference on my statement is {txn}.", "I'm on the {plan} plan, billed monthly.",
                    "My bank says the charge definitely came from you.", "I've attached a screenshot of the statement.",
                    "The account is registered under {email}.", "This is the second time this has happened this year.",
                    "Our finance team closes the month on Friday.", "I paid with the card ending {last4}.",
                    "Order date was {date}, total {amount}.", "Please confirm by email once it's sorted."],
        "technical": ["We're on version {version} ({os}).", "The error code shown is {error}.",
                      "It started after this morning's update.", "Clearing the cache and reinstalling didn't help.",
                      "Request id for one of the failures: {reqid}.", "It happens on about {pct}% of attempts.",
                      "Our status page monitor first alerted at {time}.", "I can reproduce it every time on {os}.",
                      "Nothing changed on our side as far as I know.", "Rolling back to the previous version fixes it."],
        "account": ["My username is {email}.", "I tried the 'forgot password' link three times.",
                    "I checked the spam folder too.", "The account was created in {year}.",
                    "I can verify my identity with the last four digits of my card ({last4}).",
                    "Other people on my team can log in normally.", "I'm the account owner.",
                    "I use {os} if that matters."],
        "shipping": ["Tracking number: {tracking} ({carrier}).", "The last update says 'in transit' in {city}.",
                     "I paid for express delivery ({amount}).", "The delivery address is correct in my account.",
                     "Nobody left a notice at my door.", "The order was placed on {date}.",
                     "It's a gift, so timing matters.", "I can send photos of the package if needed."],
        "other": ["I'm a customer since {year}.", "Happy to jump on a call if that's easier.",
                  "You can reach me at {email}.", "Our company has {n_users} employees using {product}.",
                  "No answer needed, really.", "Let me know if you need anything else from me."],
    },
    "pt": {
        "billing": ["O código da transação na fatura é {txn}.", "Sou assinante do {plan}.",
                    "O banco confirmou que a cobrança foi feita por vocês.", "Segue em anexo o print da fatura.",
                    "A conta está no e-mail {email}.", "É a segunda vez que isso acontece este ano.",
                    "Nosso financeiro fecha o mês na sexta-feira.", "Paguei com o cartão final {last4}.",
                    "O pedido foi feito em {date}, no valor de {amount}.", "Por favor, me confirmem por e-mail quando resolverem."],
        "technical": ["Estamos na versão {version} ({os}).", "O código do erro é {error}.",
                      "Começou depois da atualização de hoje de manhã.", "Já limpei o cache e reinstalei, não adiantou.",
                      "Request id de uma das falhas: {reqid}.", "Acontece em cerca de {pct}% das tentativas.",
                      "Nosso monitoramento alertou pela primeira vez às {time}.", "Consigo reproduzir sempre no {os}.",
                      "Não mudamos nada do nosso lado.", "Voltando para a versão anterior o problema some."],
        "account": ["Meu usuário é {email}.", "Tentei o 'esqueci minha senha' três vezes.",
                    "Já olhei a caixa de spam também.", "A conta foi criada em {year}.",
                    "Posso confirmar minha identidade com o CPF e os últimos dígitos do cartão ({last4}).",
                    "O restante da equipe consegue entrar normalmente.", "Sou o titular da conta.",
                    "Uso {os}, se isso ajudar."],
        "shipping": ["Código de rastreio: {tracking} ({carrier}).", "A última atualização diz 'objeto em trânsito' em {city}.",
                     "Paguei frete expresso ({amount}).", "O endereço no cadastro está correto.",
                     "Ninguém deixou aviso de tentativa de entrega.", "O pedido foi feito em {date}.",
                     "É presente de aniversário, então o prazo importa.", "Posso mandar fotos da embalagem se precisarem."],
        "other": ["Sou cliente desde {year}.", "Posso conversar por telefone se for mais fácil.",
                  "Meu contato é {email}.", "Nossa empresa tem {n_users} funcionários usando {product}.",
                  "Não precisa responder, de verdade.", "Qualquer coisa é só me chamar."],
    },
}

URGENCY_CUES = {
    "en": {
        "low": ["No rush, whenever someone has a moment.", "Not urgent at all.", "Low priority, just letting you know.",
                "Whenever you get a chance."],
        "medium": ["Would appreciate a reply this week.", "Please look into it when you can.",
                   "I'd like this sorted in the next few days.", "Can someone get back to me soon?"],
        "high": ["This is blocking our team today, please prioritise.", "Please treat this as urgent, we need it fixed today.",
                 "This is really hurting us, please help as soon as possible.", "I need this resolved today."],
        "critical": ["This is critical: production is down and we are losing sales every minute.",
                     "URGENT - all our customers are affected right now.",
                     "Emergency: the whole company is stopped until this is fixed.",
                     "Critical issue, please escalate immediately."],
    },
    "pt": {
        "low": ["Sem pressa, quando puderem.", "Não é urgente.", "Baixa prioridade, só para avisar.",
                "Quando tiverem um tempinho."],
        "medium": ["Gostaria de um retorno ainda esta semana.", "Por favor, verifiquem quando puderem.",
                   "Preciso disso resolvido nos próximos dias.", "Alguém pode me responder em breve?"],
        "high": ["Isso está travando nossa equipe hoje, por favor priorizem.", "É urgente, precisamos resolver hoje.",
                 "Está nos prejudicando muito, por favor ajudem o quanto antes.", "Preciso disso resolvido hoje."],
        "critical": ["Crítico: nossa operação está parada e estamos perdendo vendas a cada minuto.",
                     "URGENTE - todos os nossos clientes estão sendo afetados agora.",
                     "Emergência: a empresa inteira está parada até isso ser resolvido.",
                     "Problema crítico, por favor escalem imediatamente."],
    },
}

GREETINGS = {"en": ["Hi,", "Hello,", "Hi there,", "Hello support team,", "Dear Support,", "Hey,", "Good morning,",
                    "Good afternoon,", "To whom it may concern,", "", "", ""],
             "pt": ["Olá,", "Oi,", "Bom dia,", "Boa tarde,", "Boa noite,", "Prezados,", "Olá, equipe de suporte,",
                    "Oi, tudo bem?", "", "", ""]}
CLOSINGS = {"en": ["Thanks,", "Thanks in advance.", "Regards,", "Best regards,", "Cheers,", "Thank you!", "Kind regards,", ""],
            "pt": ["Obrigado,", "Obrigada,", "Desde já agradeço.", "Atenciosamente,", "Abraços,", "Aguardo retorno.", "Grato,", ""]}
MOBILE_FOOTER = {"en": "Sent from my iPhone", "pt": "Enviado do meu iPhone"}
SUBJECT_PREFIX = {"en": ["Re: ", "Fwd: ", "RE: "], "pt": ["Re: ", "Enc: ", "RES: "]}
URGENT_PREFIX = {"en": ["URGENT: ", "[URGENT] ", "ASAP - "], "pt": ["URGENTE: ", "[URGENTE] "]}
MONTHS = {"en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"],
          "pt": ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro"]}

CHAT_SHORT = {
    "en": {"billing": ["why was i charged {amount} twice??", "need refund for {order} pls", "how do i get my invoice"],
           "technical": ["app crashes every time i open it", "getting {error} on checkout", "site not loading"],
           "account": ["cant login, reset email never comes", "locked out of my account", "how do i change my email"],
           "shipping": ["where is my order {order}", "tracking {tracking} not moving", "package arrived broken"],
           "other": ["love the new update!", "do you have a student discount?", "is there a dark mode"]},
    "pt": {"billing": ["pq fui cobrado 2x {amount}??", "cadê meu estorno do pedido {order}", "preciso da nota fiscal"],
           "technical": ["app fecha sozinho toda hora", "dando {error} no pagamento", "site não carrega"],
           "account": ["não consigo entrar na conta", "conta bloqueada, e agora?", "como troco meu email"],
           "shipping": ["cadê meu pedido {order}", "rastreio {tracking} parado", "produto chegou quebrado"],
           "other": ["amei a atualização!", "tem desconto pra estudante?", "tem modo escuro?"]},
}
CHAT_URGENCY = {"en": {"low": "", "medium": " pls reply", "high": " need this today", "critical": " URGENT everything is down"},
                "pt": {"low": "", "medium": " aguardo", "high": " preciso pra hoje", "critical": " URGENTE tudo parado"}}

AGENT_REPLIES = {
    "en": ["Thank you for contacting {tenant_title} Support. We have escalated your case {case} to our {team} team and will get back to you within 48 hours.",
           "Thanks for your patience. Could you please send us a screenshot of the error and the exact time it happened? That will help our {team} team investigate.",
           "We're sorry for the inconvenience. Our records show the issue was resolved on our side; could you please check again and confirm?",
           "Hello, we have received your request and created case {case}. A specialist from our {team} team will contact you shortly."],
    "pt": ["Agradecemos o contato com o suporte {tenant_title}. Seu caso {case} foi encaminhado para a equipe de {team} e retornaremos em até 48 horas.",
           "Obrigado pela paciência. Poderia nos enviar um print do erro e o horário exato em que aconteceu? Isso ajuda a equipe de {team} na análise.",
           "Pedimos desculpas pelo transtorno. Pelo nosso sistema o problema já foi resolvido; poderia verificar novamente e nos confirmar?",
           "Olá, recebemos sua solicitação e abrimos o protocolo {case}. Um especialista da equipe de {team} entrará em contato em breve."],
}
FOLLOW_UPS = {
    "en": ["I already sent everything you asked for and still have no solution.",
           "This is my third message about the same problem.",
           "It's still happening, nothing has changed since your last reply.",
           "Any update on this? I haven't heard back."],
    "pt": ["Já enviei tudo que vocês pediram e continuo sem solução.",
           "Esta é a terceira mensagem sobre o mesmo problema.",
           "Continua acontecendo, nada mudou desde a última resposta.",
           "Alguma novidade? Ainda não tive retorno."],
}
TEAMS = {"en": {"billing": "billing", "technical": "engineering", "account": "account security", "shipping": "logistics",
                "other": "customer experience"},
         "pt": {"billing": "cobrança", "technical": "engenharia", "account": "segurança de contas", "shipping": "logística",
                "other": "experiência do cliente"}}
DISCLAIMER = {
    "en": "CONFIDENTIALITY NOTICE: This e-mail and any attachments are confidential and may be legally privileged. "
          "If you are not the intended recipient, please notify the sender immediately and delete this message. "
          "Any unauthorised use, disclosure or copying is strictly prohibited.",
    "pt": "AVISO DE CONFIDENCIALIDADE: Esta mensagem e seus anexos são confidenciais e podem conter informações "
          "protegidas por lei. Se você não for o destinatário, por favor avise o remetente e apague esta mensagem. "
          "É proibido o uso, a divulgação ou a cópia não autorizados.",
}
LOG_LEVELS = ["INFO", "INFO", "INFO", "WARN", "ERROR", "DEBUG"]
LOG_THREADS = ["http-nio-8080-exec-{n}", "kafka-producer-network-thread", "scheduler-{n}", "ForkJoinPool.commonPool-worker-{n}",
               "grpc-default-executor-{n}"]
LOG_CLASSES = ["c.{pkg}.checkout.PaymentService", "c.{pkg}.sync.InventorySyncJob", "c.{pkg}.api.OrdersController",
               "o.a.h.c.http.impl.io.DefaultBHttpClientConnection", "c.{pkg}.auth.SessionFilter", "c.{pkg}.export.CsvExporter",
               "com.zaxxer.hikari.pool.HikariPool"]
LOG_MESSAGES = ["Payment authorization failed: {error} (requestId={reqid})", "Retrying request to upstream (attempt {n}/5)",
                "Connection reset by peer", "Sync batch {n} committed: {n_big} rows", "Slow query detected: {n} ms",
                "Session validated for user {email}", "Upstream responded {error} in {n} ms", "Export chunk {n} written",
                "Pool stats (total={n}, active={n}, idle=0, waiting={n_big})", "Circuit breaker state changed to OPEN"]
STACK = ["java.net.SocketTimeoutException: Read timed out",
         "\tat java.base/sun.nio.ch.NioSocketImpl.timedRead(NioSocketImpl.java:288)",
         "\tat java.base/java.net.Socket$SocketInputStream.read(Socket.java:1099)",
         "\tat org.apache.hc.core5.http.impl.io.SessionInputBufferImpl.fillBuffer(SessionInputBufferImpl.java:149)",
         "\tat com.{pkg}.checkout.GatewayClient.authorize(GatewayClient.java:{n})",
         "\tat com.{pkg}.checkout.PaymentService.charge(PaymentService.java:{n})",
         "\t... 42 common frames omitted"]


class Ctx(dict):
    """Slot values for one ticket; same order number everywhere inside one ticket."""

    def __missing__(self, key):
        raise KeyError(key)


def digits(rng, n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def money(rng, currency):
    value = rng.choice([rng.randint(5, 99) + rng.choice([0, 0.9, 0.99, 0.5]), rng.randint(100, 2400) + rng.choice([0, 0.9])])
    if currency == "BRL":
        return "R$ " + f"{value:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".")
    symbol = {"USD": "$", "GBP": "£", "EUR": "€"}[currency]
    return f"{symbol}{value:,.2f}"


def make_ctx(rng, lang, tenant, when):
    t = TENANTS[tenant]
    first = rng.choice(FIRST_NAMES[lang])
    last = rng.choice(LAST_NAMES[lang])
    mail_host = rng.choice(["gmail.com", "outlook.com", "yahoo.com", "icloud.com", t["domain"]] +
                           (["uol.com.br", "bol.com.br", "hotmail.com"] if lang == "pt" else ["proton.me", "hotmail.com"]))
    local = (first + "." + last).lower().replace("'", "")
    for a, b in zip("áàâãéêíóôõúç", "aaaaeeiooouc"):
        local = local.replace(a, b)
    order_fmt = t["order"]
    order = order_fmt.format(d5=digits(rng, 5), d6=digits(rng, 6), d7=digits(rng, 7), d8=digits(rng, 8))
    past = when - timedelta(days=rng.randint(1, 25))
    n_users = rng.choice([5, 8, 12, 20, 25, 40, 50, 120])
    other_lang_first = rng.choice(FIRST_NAMES[lang])
    return Ctx(
        name=f"{first} {last}", first=first, email=f"{local}@{mail_host}",
        name2=f"{other_lang_first} {rng.choice(LAST_NAMES[lang])}",
        order=order, invoice=("NF-" if lang == "pt" else "INV-") + digits(rng, 6),
        amount=money(rng, t["currency"]), last4=digits(rng, 4),
        date=past.strftime("%d/%m") if lang == "pt" else past.strftime("%b %d").replace(" 0", " "),
        month=rng.choice(MONTHS[lang]), year=str(rng.randint(2016, 2024)),
        product=rng.choice(t["products"]), plan=rng.choice(t["plans"]), item=rng.choice(t["items"]),
        version=f"{rng.randint(2, 9)}.{rng.randint(0, 19)}.{rng.randint(0, 9)}", os=rng.choice(OSES),
        error=rng.choice(ERROR_CODES), reqid=f"req_{digits(rng, 4)}{rng.choice('abcdef')}{digits(rng, 6)}",
        tracking=rng.choice(["1Z", "BR", "JD", "LX", "94"]) + digits(rng, 10) + (rng.choice(["BR", "US", ""])),
        carrier=rng.choice(CARRIERS[lang]), city=rng.choice(CITIES[lang]),
        city_far=rng.choice(["Lagos", "Moscow", "Jakarta", "Hanoi", "Bucharest", "Caracas", "Minsk"]),
        days=str(rng.randint(3, 21)), pct=str(rng.choice([5, 10, 15, 20, 30, 40, 60, 80, 100])),
        n=str(rng.randint(2, 60)), n_big=rng.choice(["20,000", "150,000", "2 million", "500,000"]) if lang == "en"
        else rng.choice(["20 mil", "150 mil", "2 milhões", "500 mil"]),
        n_users=str(n_users), n_users_plus=str(n_users + rng.randint(2, 10)), n_users_minus=str(max(1, n_users - rng.randint(1, 4))),
        txn=f"{rng.choice(['TXN', 'PAY', 'ch_'])}{digits(rng, 10)}",
        time=(when - timedelta(minutes=rng.randint(15, 300))).strftime("%H:%M") + (" UTC" if lang == "en" else ""),
        case=f"#{digits(rng, 7)}", tenant_title=tenant.replace("-", " ").title(),
        pkg=tenant.replace("-", ""), d5=digits(rng, 5),
    )


PT_CONTRACTIONS = [(" de o ", " do "), (" de a ", " da "), (" em o ", " no "), (" em a ", " na "),
                   (" a o ", " ao "), (" por o ", " pelo "), (" por a ", " pela ")]


def fill(template, ctx):
    text = template.format_map(ctx)
    for a, b in PT_CONTRACTIONS:
        text = text.replace(a, b)
    if template.startswith("{") and text:
        text = text[0].upper() + text[1:]
    return text


ERROR_TALK = ("{error}", "{reqid}", "{pct}", "{time}", "Rolling back", "Voltando para")


def compose_body(rng, lang, cat, urgency, sc, ctx):
    """A normal-length body (target 150-800 characters)."""
    opening = fill(rng.choice(sc["openings"]), ctx)
    pool = [d for d in DETAILS[lang][cat] if sc["errors"] or not any(t in d for t in ERROR_TALK)]
    details = [fill(d, ctx) for d in rng.sample(pool, k=min(len(pool), 5))]
    cue = rng.choice(URGENCY_CUES[lang][urgency])
    greeting = rng.choice(GREETINGS[lang])
    closing = rng.choice(CLOSINGS[lang])
    signature = rng.choice([ctx["first"], ctx["name"], f"{ctx['name']}\n{ctx['tenant_title']} customer", ""])
    n_details = rng.choice([1, 1, 2, 2, 3])

    def render(k):
        middle = [opening] + details[:k]
        # urgency cue: always stated for high/critical, usually for low/medium
        if urgency in ("high", "critical") or rng_cue:
            middle.insert(1 if cue_early else len(middle), cue)
        paragraph_sep = "\n\n" if multi_para else " "
        text = paragraph_sep.join(middle)
        parts = []
        if greeting:
            parts.append(greeting)
        parts.append(text)
        tail = "\n".join(x for x in [closing, signature] if x)
        if tail:
            parts.append(tail)
        if mobile:
            parts.append(MOBILE_FOOTER[lang])
        return "\n\n".join(parts)

    rng_cue = rng.random() < 0.75
    cue_early = rng.random() < 0.4
    multi_para = rng.random() < 0.4
    mobile = rng.random() < 0.08
    k = n_details
    body = render(k)
    while len(body) < 150 and k < len(details):
        k += 1
        body = render(k)
    while len(body) > 800 and k > 0:
        k -= 1
        body = render(k)
    return body


def compose_long(rng, lang, cat, urgency, sc, ctx, target):
    """A 2-6 k character body: a log excerpt (technical) or an email thread (any category)."""
    base = compose_body(rng, lang, cat, urgency, sc, ctx)
    if cat == "technical" and rng.random() < 0.7:
        intro = "Log excerpt below:" if lang == "en" else "Segue trecho do log:"
        lines = []
        ts = datetime(2025, 11, 2, 23, 0, 0) + timedelta(seconds=rng.randint(0, 30000))
        size = len(base) + len(intro) + 4
        while size < target:
            if rng.random() < 0.08:
                block = [fill(s, Ctx(pkg=ctx["pkg"], n=str(rng.randint(40, 900)))) for s in STACK]
            else:
                ts += timedelta(milliseconds=rng.randint(3, 4000))
                loc = Ctx(ctx)
                loc["n"] = str(rng.randint(1, 999))
                loc["error"] = rng.choice(ERROR_CODES)
                block = ["{}Z {:<5} [{}] {} - {}".format(
                    ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}", rng.choice(LOG_LEVELS),
                    fill(rng.choice(LOG_THREADS), loc), fill(rng.choice(LOG_CLASSES), loc), fill(rng.choice(LOG_MESSAGES), loc))]
            lines.extend(block)
            size += sum(len(b) + 1 for b in block)
        return base + "\n\n" + intro + "\n" + "\n".join(lines)
    # email thread: newest message first, quoted history below, each level with '>'
    parts = [base]
    depth = 1
    size = len(base)
    when = datetime(2025, 10, 30, 14, 0)
    team = TEAMS[lang][cat]
    while size < target:
        when -= timedelta(hours=rng.randint(5, 60))
        stamp = when.strftime("%a, %b %d, %Y at %I:%M %p") if lang == "en" else when.strftime("%d/%m/%Y às %H:%M")
        if depth % 2 == 1:
            who = f"{ctx['tenant_title']} Support <support@{TENANTS_BY_TENANT_DOMAIN[ctx['pkg']]}>"
            msg = fill(rng.choice(AGENT_REPLIES[lang]), Ctx(ctx, team=team))
            msg += "\n\n" + DISCLAIMER[lang]
        else:
            who = f"{ctx['name']} <{ctx['email']}>"
            msg = rng.choice(FOLLOW_UPS[lang]) + " " + fill(rng.choice(sc["openings"]), ctx)
        header = f"On {stamp}, {who} wrote:" if lang == "en" else f"Em {stamp}, {who} escreveu:"
        quote = ">" * depth + " "
        block = "\n".join(quote + line if line else quote.rstrip() for line in (header + "\n\n" + msg).split("\n"))
        parts.append(block)
        size += len(block) + 2
        depth += 1
    return "\n\n".join(parts)


TENANTS_BY_TENANT_DOMAIN = {name.replace("-", ""): t["domain"] for name, t in TENANTS.items()}


def make_subject(rng, lang, urgency, sc, ctx, long_thread):
    subject = fill(rng.choice(sc["subjects"]), ctx)
    if long_thread or rng.random() < 0.08:
        subject = rng.choice(SUBJECT_PREFIX[lang]) + subject
    if urgency == "critical" and rng.random() < 0.4:
        subject = rng.choice(URGENT_PREFIX[lang]) + subject
    if rng.random() < 0.05:
        subject = subject.lower()
    return subject


def pick_scenario(rng, lang, cat, urgency):
    fits = [s for s in SCENARIOS[lang] if s["cat"] == cat and urgency in s["urg"]]
    if not fits:
        raise SystemExit(f"no scenario for {lang}/{cat}/{urgency}")
    return rng.choice(fits)


def iso(ts):
    return ts.strftime("%Y-%m-%dT%H:%M:%SZ")


def main():
    rng = random.Random(SEED)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.join(root, "src", "main", "resources", "demo")
    os.makedirs(out_dir, exist_ok=True)

    # coverage check: every (lang, category, urgency) has at least one scenario
    for lang in SCENARIOS:
        for cat in CATEGORIES:
            for urg in URGENCIES:
                pick_scenario(random.Random(0), lang, cat, urg)

    priorities = [p for p, n in PRIORITY_COUNTS.items() for _ in range(n)]
    rng.shuffle(priorities)
    assert len(priorities) == NORMAL_TICKETS
    n_long = round(NORMAL_TICKETS * LONG_SHARE)
    n_chat = round(NORMAL_TICKETS * CHAT_SHORT_SHARE)
    shapes = ["long"] * n_long + ["chat"] * n_chat + ["normal"] * (NORMAL_TICKETS - n_long - n_chat)
    rng.shuffle(shapes)

    when = START
    tickets = []   # (line json text, label or None)
    for i in range(1, NORMAL_TICKETS + 1):
        when += timedelta(seconds=int(rng.expovariate(1 / 540)) + 1)
        priority = priorities[i - 1]
        lang = "pt" if rng.random() < PORTUGUESE_SHARE else "en"
        tenant = rng.choices(TENANTS_BY_LANG[lang], weights=TENANT_WEIGHTS[lang])[0]
        cat = rng.choices(CATEGORIES, weights=CATEGORY_WEIGHTS)[0]
        urgency = rng.choices(URGENCIES, weights=URGENCY_WEIGHTS[priority])[0]
        sc = pick_scenario(rng, lang, cat, urgency)
        ctx = make_ctx(rng, lang, tenant, when)
        ctx["error"] = rng.choice(ERRORS[sc["errors"] or ("payment" if cat == "technical" else "billing")])

        channel = rng.choice({"interactive": ["chat", "chat", "web", "phone"],
                              "standard": ["email", "email", "web", "app"],
                              "bulk": ["email", "import", "api", "email"]}[priority])
        is_long = shapes[i - 1] == "long"
        is_chat_short = shapes[i - 1] == "chat"
        if is_chat_short:
            channel = "chat"
            body = fill(rng.choice(CHAT_SHORT[lang][cat]), ctx) + CHAT_URGENCY[lang][urgency]
        elif is_long:
            body = compose_long(rng, lang, cat, urgency, sc, ctx, target=rng.randint(2100, 5800))
        else:
            body = compose_body(rng, lang, cat, urgency, sc, ctx)

        ticket = {"id": f"T-{i:05d}"}
        no_subject = is_chat_short or (channel == "chat" and rng.random() < NO_SUBJECT_SHARE * 5)
        if not no_subject:
            ticket["subject"] = make_subject(rng, lang, urgency, sc, ctx, long_thread=is_long and cat != "technical")
        ticket["body"] = body
        ticket["tenant"] = tenant
        ticket["priority"] = priority
        ticket["submittedAt"] = iso(when)
        if rng.random() < METADATA_SHARE:
            locale = {"en": rng.choice(["en-US", "en-US", "en-GB", "en-IN"]), "pt": rng.choice(["pt-BR", "pt-BR", "pt-BR", "pt-PT"])}[lang]
            metadata = {"channel": channel, "locale": locale}
            if channel == "import":
                metadata["source"] = rng.choice(["zendesk-export", "freshdesk-export"])
            if rng.random() < 0.3:
                metadata["customerTier"] = rng.choice(["free", "pro", "enterprise"])
            ticket["metadata"] = metadata
        tickets.append((json.dumps(ticket, ensure_ascii=False), {"id": ticket["id"], "category": cat, "urgency": urgency}))

    specials = {}
    specials["not-json"] = ('{"id": "T-TRUNC-1", "subject": "Cobrança em duplicidade", "body": "Fui cobrado duas vezes pelo pedido LS4471',
                            None)
    specials["array"] = (json.dumps([{"id": "T-ARRAY-1", "subject": "Order AC-118273 not delivered",
                                      "body": "Exported as a list by mistake. My order never arrived.",
                                      "tenant": "acme", "priority": "bulk"}], ensure_ascii=False), None)
    specials["no-id"] = (json.dumps({"subject": "Reset password link expired",
                                     "body": "The password reset link you sent me says it expired, even though I clicked it right away.",
                                     "tenant": "globex", "priority": "standard", "submittedAt": "2025-11-04T10:22:31Z"},
                                    ensure_ascii=False), None)
    specials["no-text"] = (json.dumps({"id": "T-EMPTY-1", "tenant": "hooli", "priority": "standard",
                                       "submittedAt": "2025-11-05T13:40:02Z",
                                       "metadata": {"channel": "api", "locale": "en-US"}}, ensure_ascii=False), None)
    specials["huge"] = huge_ticket(random.Random(SEED + 1))

    lines = []
    normal = iter(tickets)
    total = NORMAL_TICKETS + len(SPECIAL_LINES)
    for n in range(1, total + 1):
        lines.append(specials[SPECIAL_LINES[n]] if n in SPECIAL_LINES else next(normal))
    assert next(normal, None) is None

    with open(os.path.join(out_dir, "tickets.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for text, _ in lines:
            f.write(text + "\n")
    with open(os.path.join(out_dir, "labels.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for _, label in lines:
            if label is not None:
                f.write(json.dumps(label, ensure_ascii=False) + "\n")
    print(f"wrote {len(lines)} lines, {sum(1 for _, l in lines if l)} labels to {out_dir}", file=sys.stderr)


def huge_ticket(rng):
    """One ticket whose body is ~700 000 characters of gateway log lines: far over any context budget."""
    intro = ("Attaching the full gateway log for incident INC-4471 as requested by your engineer. "
             "Checkout requests time out intermittently since Nov 2; the log covers the whole night.\n\n")
    out = [intro]
    size = len(intro)
    ts = datetime(2025, 11, 2, 22, 0, 0)
    seq = 0
    while size < HUGE_BODY_CHARS:
        seq += 1
        ts += timedelta(milliseconds=rng.randint(1, 900))
        status = rng.choice([200, 200, 200, 200, 502, 504, 499])
        line = (f"{ts.strftime('%Y-%m-%dT%H:%M:%S.')}{ts.microsecond // 1000:03d}Z gateway-7f9c {'ERROR' if status >= 500 else 'INFO '} "
                f"req={seq:07d} upstream=checkout-svc:8443 status={status} latency_ms={rng.randint(3, 30000)} "
                f"bytes={rng.randint(200, 9000)}\n")
        out.append(line)
        size += len(line)
    body = "".join(out)[:HUGE_BODY_CHARS]
    ticket = {"id": "T-HUGE-1", "subject": "Full gateway log export for incident INC-4471", "body": body,
              "tenant": "globex", "priority": "bulk", "submittedAt": "2025-11-05T02:14:09Z",
              "metadata": {"channel": "api", "locale": "en-US", "attachment": "gateway-2025-11-02.log"}}
    return json.dumps(ticket, ensure_ascii=False), {"id": "T-HUGE-1", "category": "technical", "urgency": "high"}


if __name__ == "__main__":
    main()
