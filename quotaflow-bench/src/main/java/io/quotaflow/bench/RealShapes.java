package io.quotaflow.bench;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The heavy tail of real tickets, added to generated ones for {@code bench --scenario lean}'s
 * "real-shaped" set: what customers paste and what mail clients add below the words that carry the
 * label. Deterministic from a seed; each shape drawn on its own:
 * <ul>
 *   <li>{@value #P_THREAD} a quoted earlier thread under a top-posted reply (Outlook's
 *       {@code From:/Sent:/To:/Subject:} block, Gmail's {@code On ... wrote:} wrapped over two lines, or
 *       {@code -----Original Message-----}), holding a support agent's reply and the customer's first
 *       message; a fifth of those a nudge ("Any update on this?") whose label is only in the quoted message;</li>
 *   <li>{@value #P_SIGNATURE} a signature without a sign-off (name, role, company, phone, web address);</li>
 *   <li>{@value #P_DISCLAIMER} a confidentiality notice;</li>
 *   <li>{@value #P_LOG} a pasted log of 10 to 60 lines in one of four shapes (JSON lines, {@code key=value},
 *       a Python traceback, an access log);</li>
 *   <li>{@value #P_TABLE} a pasted table of 8 to 40 rows ({@code |}-separated, or CSV).</li>
 * </ul>
 * The label stays the generated ticket's: the shapes carry no new signal, only words that may mislead
 * (a log's {@code ERROR}, an agent's "account" or "payment").
 */
final class RealShapes {

    static final double P_THREAD = 0.30;
    static final double P_NUDGE = 0.20;
    static final double P_SIGNATURE = 0.35;
    static final double P_DISCLAIMER = 0.10;
    static final double P_LOG = 0.10;
    static final double P_TABLE = 0.06;

    private static final List<String> AGENT_REPLIES = List.of(
            "Thank you for contacting us. We are sorry for the trouble. Could you send us the email address on your account "
                    + "and a screenshot of the error you see? That will help us look into it.",
            "Thanks for reaching out! I have forwarded this to our team. In the meantime, could you confirm the last four "
                    + "digits of the card used for the payment and the order number?",
            "Hello, thanks for your patience. We checked your profile and could not find anything unusual. Can you tell us "
                    + "which browser and app version you use, and when it started?",
            "We have received your request and a support specialist will get back to you within 2 business days. Your "
                    + "reference number is in the subject line; please keep it in any reply.");
    private static final List<String> NUDGES = List.of("Any update on this?", "Hi, just following up on the message below.",
            "Still waiting on this one.", "Is there any news? See below.", "Please see my message below.");
    private static final List<String> NAMES = List.of("Maria Souza", "James O'Neill", "Priya Raman", "Lucas Ferreira",
            "Anna Kowalski", "David Chen");
    private static final List<String> ROLES = List.of("Operations Manager", "Head of Finance", "IT Coordinator",
            "Office Administrator", "Customer Success Lead");
    private static final List<String> COMPANIES = List.of("Acme Logistics Ltd", "Nordwind GmbH", "Padaria Central",
            "Blue Harbor Consulting", "Ferreira & Filhos");
    private static final List<String> DISCLAIMERS = List.of(
            "CONFIDENTIALITY NOTICE: This e-mail and any attachments are confidential and intended solely for the use of the "
                    + "individual or entity to whom they are addressed. If you have received this e-mail in error, please notify "
                    + "the sender immediately and delete it. Any unauthorised copying, disclosure or distribution is prohibited.",
            "This message (including any attachments) is confidential and may be privileged. If you are not the intended "
                    + "recipient, please let us know by reply and delete it from your system; you may not copy it or use it for "
                    + "any purpose.",
            "Esta mensagem e seus anexos podem conter informações confidenciais. Se você a recebeu por engano, avise o "
                    + "remetente e apague-a.");
    private static final List<String> SERVICES = List.of("checkout-api", "auth-service", "sync-worker", "gateway");
    private static final List<String> MESSAGES = List.of("request completed", "retrying upstream call", "cache miss",
            "connection reset by peer", "slow response from upstream", "session refreshed", "queue depth high",
            "upstream returned 502");
    private static final List<String> LEVELS = List.of("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR");

    private final long seed;

    RealShapes(long seed) {
        this.seed = seed;
    }

    /** {@code body} of the ticket at {@code index} ({@code firstMessage} is the customer's own text) with its shapes added. */
    String shape(int index, String body) {
        SplittableRandom rng = new SplittableRandom(seed * 1_000_003L + index);
        StringBuilder out = new StringBuilder();
        boolean thread = rng.nextDouble() < P_THREAD;
        boolean nudge = thread && rng.nextDouble() < P_NUDGE;
        out.append(nudge ? oneOf(rng, NUDGES) : body);
        if (rng.nextDouble() < P_LOG) {
            out.append("\n\nHere is what the logs show:\n").append(log(rng));
        }
        if (rng.nextDouble() < P_TABLE) {
            out.append("\n\n").append(table(rng));
        }
        String name = oneOf(rng, NAMES);
        if (rng.nextDouble() < P_SIGNATURE) {
            out.append("\n\n").append(name).append('\n').append(oneOf(rng, ROLES)).append(" | ").append(oneOf(rng, COMPANIES))
                    .append(String.format(Locale.ROOT, "%nTel: +44 20 7946 %04d%nwww.%s.example.com", rng.nextInt(10_000),
                            name.split(" ")[1].toLowerCase(Locale.ROOT).replace("'", "")));
        }
        if (rng.nextDouble() < P_DISCLAIMER) {
            out.append("\n\n").append(oneOf(rng, DISCLAIMERS));
        }
        if (thread) {
            out.append("\n\n").append(header(rng, "Support Team <support@helpdesk.example.com>", name))
                    .append('\n').append(oneOf(rng, AGENT_REPLIES)).append("\n\n")
                    .append(header(rng, name + " <" + name.split(" ")[0].toLowerCase(Locale.ROOT) + "@customer.example.com>",
                            "Support Team")).append('\n').append(body);
        }
        return out.toString();
    }

    private static String header(SplittableRandom rng, String from, String to) {
        return switch (rng.nextInt(3)) {
            case 0 -> "From: " + from + "\nSent: Monday, 3 November 2025 10:1" + rng.nextInt(10) + "\nTo: " + to
                    + "\nSubject: RE: Your request";
            case 1 -> "On Mon, 3 Nov 2025 at 10:1" + rng.nextInt(10) + ", " + from.replace(" <", "\n<") + " wrote:";
            default -> "-----Original Message-----\nFrom: " + from + "\nDate: 2025-11-03 10:1" + rng.nextInt(10)
                    + "\nSubject: Your request";
        };
    }

    private static String log(SplittableRandom rng) {
        int n = 10 + rng.nextInt(51);
        int shape = rng.nextInt(4);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String level = oneOf(rng, LEVELS);
            String service = oneOf(rng, SERVICES);
            String message = oneOf(rng, MESSAGES);
            String time = String.format(Locale.ROOT, "2025-11-03T10:%02d:%02d.%03dZ", i / 60, i % 60, rng.nextInt(1000));
            String line = switch (shape) {
                case 0 -> String.format(Locale.ROOT, "{\"ts\":\"%s\",\"level\":\"%s\",\"service\":\"%s\",\"msg\":\"%s\",\"trace_id\":\"%016x\"}",
                        time, level, service, message, rng.nextLong());
                case 1 -> String.format(Locale.ROOT, "ts=%s level=%s svc=%s msg=\"%s\" duration_ms=%d", time,
                        level.toLowerCase(Locale.ROOT), service, message, rng.nextInt(5_000));
                case 2 -> i == 0 ? "Traceback (most recent call last):" : i == n - 1 ? "ConnectionError: " + message
                        : String.format(Locale.ROOT, "  File \"/app/%s/handlers.py\", line %d, in handle_%d", service, 10 + rng.nextInt(400), i);
                default -> String.format(Locale.ROOT, "10.0.%d.%d - - [03/Nov/2025:10:%02d:%02d +0000] \"POST /v1/%s HTTP/1.1\" %d %d",
                        rng.nextInt(255), rng.nextInt(255), i / 60, i % 60, service, rng.nextDouble() < 0.8 ? 200 : 502, rng.nextInt(20_000));
            };
            out.append(line).append('\n');
        }
        return out.toString().strip();
    }

    private static String table(SplittableRandom rng) {
        int n = 8 + rng.nextInt(33);
        boolean csv = rng.nextBoolean();
        StringBuilder out = new StringBuilder(csv ? "date,reference,amount,status\n" : "| Date | Reference | Amount | Status |\n|---|---|---|---|\n");
        for (int i = 0; i < n; i++) {
            String date = String.format(Locale.ROOT, "2025-10-%02d", 1 + i % 28);
            String ref = String.format(Locale.ROOT, "REF-%06d", rng.nextInt(1_000_000));
            String amount = String.format(Locale.ROOT, "%d.%02d", 10 + rng.nextInt(900), rng.nextInt(100));
            String status = rng.nextDouble() < 0.8 ? "ok" : "pending";
            out.append(csv ? String.join(",", date, ref, amount, status) : "| " + String.join(" | ", date, ref, amount, status) + " |")
                    .append('\n');
        }
        return out.toString().strip();
    }

    private static String oneOf(SplittableRandom rng, List<String> values) {
        return values.get(rng.nextInt(values.size()));
    }
}
