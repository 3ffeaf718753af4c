package io.quotaflow.bench;

import io.quotaflow.records.Priority;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Makes realistic support tickets for the benchmark, deterministically from a seed: the same seed
 * and index always give the same ticket, and {@code generate(n)} is a prefix of
 * {@code generate(n + m)}.
 *
 * <p>The mix:
 * <ul>
 *   <li>bodies with a heavy tail: about 95 % of {@value #SHORT_MIN_CHARS}–{@value #SHORT_MAX_CHARS}
 *       characters, about {@code 5 %} of {@value #LONG_MIN_CHARS}–{@value #LONG_MAX_CHARS} (pasted logs,
 *       invoice or tracking lines, a quoted earlier message);</li>
 *   <li>English and Portuguese (about 45 % Portuguese, following the tenant);</li>
 *   <li>five categories (billing 25 %, technical 25 %, account 20 %, shipping 20 %, other 10 %) and
 *       four urgencies (low 25 %, medium 40 %, high 25 %, critical 10 %);</li>
 *   <li>three priorities (interactive 10 %, standard 50 %, bulk 40 %) and six tenants of unequal size;</li>
 *   <li>about 3 % without a subject;</li>
 *   <li>optionally ({@link #TicketGenerator(long, double)}), a share of huge tickets of
 *       {@value #HUGE_MIN_CHARS}–{@value #HUGE_MAX_CHARS} characters (a whole log or mail thread pasted
 *       in). Whether a ticket is huge is drawn from a random source of its own, so the other tickets
 *       are exactly those of the default mix, and a share of 0 (the default) changes nothing.</li>
 * </ul>
 *
 * <p>Each ticket carries the label it was written to have. Its words are ones the simulator's
 * keyword classifier knows, so the simulated model is mostly right; a minority of tickets carry a
 * deliberate confuser (a passing mention of another category, an urgency said in words no rule
 * knows, an innocent "cannot"), so it is not always right. Accuracy is a reported figure.
 */
public final class TicketGenerator {

    public static final int SHORT_MIN_CHARS = 200;
    public static final int SHORT_MAX_CHARS = 800;
    public static final int LONG_MIN_CHARS = 2_000;
    public static final int LONG_MAX_CHARS = 6_000;
    public static final double LONG_SHARE = 0.05;
    public static final int HUGE_MIN_CHARS = 40_000;
    public static final int HUGE_MAX_CHARS = 60_000;

    public static final List<String> CATEGORIES = List.of("billing", "technical", "account", "shipping", "other");
    public static final List<String> URGENCIES = List.of("low", "medium", "high", "critical");

    /** Tenant name → (share of tickets, share of them in Portuguese). */
    static final Map<String, double[]> TENANTS = tenants();

    private static final double[] CATEGORY_WEIGHTS = {25, 25, 20, 20, 10};
    private static final double[] URGENCY_WEIGHTS = {25, 40, 25, 10};
    private static final Priority[] PRIORITIES = {Priority.INTERACTIVE, Priority.STANDARD, Priority.BULK};
    private static final double[] PRIORITY_WEIGHTS = {10, 50, 40};

    /** A category mention from another category (flips the category when it wins the count or the tie-break). */
    static final double P_MENTION = 0.15;
    /** An "other" ticket mentioning some category: always misread. */
    static final double P_MENTION_OTHER = 0.20;
    /** A critical ticket that says so in words no rule knows. */
    static final double P_HIDDEN_CRITICAL = 0.12;
    /** A low ticket without a low-urgency word. */
    static final double P_HIDDEN_LOW = 0.15;
    /** A medium ticket with an innocent "cannot". */
    static final double P_INNOCENT_HIGH = 0.08;
    static final double P_NO_SUBJECT = 0.03;

    private static final Instant BASE_TIME = Instant.parse("2025-11-03T06:00:00Z");

    private final long seed;
    private final double hugeShare;

    /** The default mix: no huge tickets. */
    public TicketGenerator(long seed) {
        this(seed, 0);
    }

    /**
     * @param hugeShare share of tickets made huge ({@value #HUGE_MIN_CHARS}–{@value #HUGE_MAX_CHARS}
     *                  characters), in [0, 1]; the others are the default mix's, unchanged
     */
    public TicketGenerator(long seed, double hugeShare) {
        if (!(hugeShare >= 0 && hugeShare <= 1)) {
            throw new IllegalArgumentException("hugeShare must be in [0, 1]: " + hugeShare);
        }
        this.seed = seed;
        this.hugeShare = hugeShare;
    }

    public double hugeShare() {
        return hugeShare;
    }

    public long seed() {
        return seed;
    }

    /** The first {@code count} tickets of this seed, ids {@code BT-000001} onwards. */
    public List<GeneratedTicket> generate(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
        List<GeneratedTicket> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(ticket(i));
        }
        return out;
    }

    /** The ticket at {@code index} (0-based). */
    public GeneratedTicket ticket(int index) {
        SplittableRandom rng = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL);
        String tenant = pickTenant(rng);
        boolean pt = rng.nextDouble() < TENANTS.get(tenant)[1];
        Phrases.Language lang = pt ? Phrases.PT : Phrases.EN;
        String category = CATEGORIES.get(pick(rng, CATEGORY_WEIGHTS));
        String urgency = URGENCIES.get(pick(rng, URGENCY_WEIGHTS));
        Priority priority = PRIORITIES[pick(rng, PRIORITY_WEIGHTS)];
        boolean isLong = rng.nextDouble() < LONG_SHARE;
        boolean huge = isHuge(index);
        isLong |= huge;
        int target = targetLength(rng, huge, isLong);
        TicketFiller fill = new TicketFiller(rng, lang);

        String subject = rng.nextDouble() < P_NO_SUBJECT ? null : fill.apply(TicketFiller.oneOf(rng, lang.subjects().get(category)));

        // the paragraph that carries the meaning
        List<String> sentences = meaning(rng, lang, category, fill);
        subject = addUrgency(sentences, urgency, subject, pt, rng, lang, fill);

        String greeting = TicketFiller.oneOf(rng, lang.greetings());
        String signature = "\n\n" + TicketFiller.oneOf(rng, lang.signOffs()) + "\n" + fill.name(true);
        StringBuilder paragraph = new StringBuilder(String.join(" ", sentences));
        int fixed = greeting.length() + 2 + signature.length();
        int max = huge ? HUGE_MAX_CHARS : isLong ? LONG_MAX_CHARS : SHORT_MAX_CHARS;

        // neutral sentences until the paragraph is long enough (a short ticket) or reads naturally (a long one)
        int shortTarget = isLong ? Math.min(target, SHORT_MIN_CHARS + rng.nextInt(400)) : target;
        appendFillers(paragraph, fixed, shortTarget, max, rng, fill);

        StringBuilder body = new StringBuilder(greeting).append("\n\n").append(paragraph);
        if (isLong) {
            appendLongTail(body, signature.length(), target, max, rng, lang, category, fill);
        }
        body.append(signature);

        Instant submittedAt = BASE_TIME.plusSeconds(index * 7L + rng.nextInt(7));
        String channel = channel(priority, rng);
        return new GeneratedTicket(String.format(Locale.ROOT, "BT-%06d", index + 1), tenant, priority, lang.code(),
                subject, body.toString(), submittedAt, channel, new GeneratedTicket.Label(category, urgency));
    }

    private static int targetLength(SplittableRandom rng, boolean huge, boolean isLong) {
        if (huge) {
            return HUGE_MIN_CHARS + rng.nextInt(HUGE_MAX_CHARS - HUGE_MIN_CHARS + 1);
        }
        return isLong
                ? LONG_MIN_CHARS + rng.nextInt(LONG_MAX_CHARS - LONG_MIN_CHARS + 1)
                : SHORT_MIN_CHARS + rng.nextInt(SHORT_MAX_CHARS - SHORT_MIN_CHARS + 1);
    }

    /** The category's sentences: one or two core ones, sometimes a passing mention of another category. */
    private static List<String> meaning(SplittableRandom rng, Phrases.Language lang, String category, TicketFiller fill) {
        List<String> sentences = new ArrayList<>();
        List<String> core = lang.core().get(category);
        int first = rng.nextInt(core.size());
        sentences.add(fill.apply(core.get(first)));
        if (rng.nextDouble() < 0.4 && core.size() > 1) {
            int second = (first + 1 + rng.nextInt(core.size() - 1)) % core.size();
            sentences.add(fill.apply(core.get(second)));
        }
        if (rng.nextDouble() < (category.equals("other") ? P_MENTION_OTHER : P_MENTION)) {
            List<String> others = new ArrayList<>(lang.mentions().keySet());
            others.remove(category);
            others.sort(null);
            sentences.add(rng.nextInt(2), fill.apply(TicketFiller.oneOf(rng, lang.mentions().get(TicketFiller.oneOf(rng, others)))));
        }
        return sentences;
    }

    /** Adds the urgency's sentence (or its confuser) to {@code sentences}; returns the subject, maybe marked urgent. */
    private static String addUrgency(List<String> sentences, String urgency, String subject, boolean pt, SplittableRandom rng,
                                     Phrases.Language lang, TicketFiller fill) {
        switch (urgency) {
            case "critical" -> {
                if (rng.nextDouble() < P_HIDDEN_CRITICAL) {
                    sentences.add(fill.apply(TicketFiller.oneOf(rng, lang.hiddenCritical())));
                } else {
                    sentences.add(fill.apply(TicketFiller.oneOf(rng, lang.urgency().get("critical"))));
                    if (subject != null && rng.nextDouble() < 0.4) {
                        subject = (pt ? "[URGENTE] " : "[URGENT] ") + subject;
                    }
                }
            }
            case "low" -> sentences.add(fill.apply(TicketFiller.oneOf(rng,
                    rng.nextDouble() < P_HIDDEN_LOW ? lang.hiddenLow() : lang.urgency().get("low"))));
            case "medium" -> {
                sentences.add(fill.apply(TicketFiller.oneOf(rng, lang.urgency().get("medium"))));
                if (rng.nextDouble() < P_INNOCENT_HIGH) {
                    sentences.add(rng.nextInt(sentences.size() + 1), fill.apply(TicketFiller.oneOf(rng, lang.innocentHigh())));
                }
            }
            default -> sentences.add(fill.apply(TicketFiller.oneOf(rng, lang.urgency().get(urgency))));
        }
        return subject;
    }

    private static String channel(Priority priority, SplittableRandom rng) {
        return switch (priority) {
            case INTERACTIVE -> "chat";
            case STANDARD -> rng.nextBoolean() ? "email" : "web";
            case BULK -> rng.nextDouble() < 0.7 ? "import" : "email";
        };
    }

    /** Whether the ticket at {@code index} is huge: a draw of its own, independent of everything else about it. */
    boolean isHuge(int index) {
        if (hugeShare <= 0) {
            return false;
        }
        SplittableRandom draw = new SplittableRandom(seed * 0x632BE59BD9B4E019L + index * 0xD1B54A32D192ED03L + 0x5851F42D4C957F2DL);
        return draw.nextDouble() < hugeShare;
    }

    /** The tickets as JSON lines (UTF-8), the input format of {@code quotaflow publish}. */
    public static byte[] jsonLines(List<GeneratedTicket> tickets) {
        StringBuilder sb = new StringBuilder();
        for (GeneratedTicket t : tickets) {
            sb.append(t.toJson()).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Intended labels by ticket id, in order. */
    public static Map<String, GeneratedTicket.Label> labels(List<GeneratedTicket> tickets) {
        Map<String, GeneratedTicket.Label> labels = new LinkedHashMap<>();
        tickets.forEach(t -> labels.put(t.id(), t.label()));
        return labels;
    }

    private static void appendFillers(StringBuilder paragraph, int fixed, int target, int max, SplittableRandom rng,
                                      TicketFiller fill) {
        // drawn without replacement: nobody writes the same sentence twice in a paragraph
        List<String> fillers = new ArrayList<>(fill.language().fillers());
        while (fixed + paragraph.length() < target && !fillers.isEmpty()) {
            String sentence = fill.apply(fillers.remove(rng.nextInt(fillers.size())));
            if (fixed + paragraph.length() + 1 + sentence.length() <= max) {
                paragraph.append(' ').append(sentence);
            }
        }
    }

    /** Detail lines of the category (a log, invoices, tracking events, ...) and a quoted earlier message. */
    private static void appendLongTail(StringBuilder body, int reserved, int target, int max, SplittableRandom rng,
                                       Phrases.Language lang, String category, TicketFiller fill) {
        List<String> lines = lang.detailLines().get(category);
        boolean quoted = false;
        int misses = 0;
        while (body.length() + reserved < target && misses < 50) {
            StringBuilder block = new StringBuilder("\n\n");
            if (!quoted && rng.nextDouble() < 0.35) {
                // a quoted earlier message: the customer's own words again, reflowed
                block.append(lang.quoteHeader());
                int n = 2 + rng.nextInt(4);
                for (int i = 0; i < n; i++) {
                    block.append("\n> ").append(fill.apply(TicketFiller.oneOf(rng, lang.fillers())));
                }
                block.append("\n> ").append(fill.apply(TicketFiller.oneOf(rng, lang.core().get(category))));
                quoted = true;
            } else {
                int n = 4 + rng.nextInt(12);
                for (int i = 0; i < n; i++) {
                    if (i > 0) {
                        block.append('\n');
                    }
                    block.append(fill.apply(TicketFiller.oneOf(rng, lines)));
                }
            }
            if (body.length() + block.length() + reserved > max) {
                misses++;
                continue;
            }
            body.append(block);
        }
        // top up line by line to reach the target when a whole block did not fit
        while (body.length() + reserved < target) {
            String line = "\n" + fill.apply(TicketFiller.oneOf(rng, lines));
            if (body.length() + line.length() + reserved > max) {
                break;
            }
            body.append(line);
        }
    }

    private static String pickTenant(SplittableRandom rng) {
        double total = TENANTS.values().stream().mapToDouble(v -> v[0]).sum();
        double r = rng.nextDouble() * total;
        String last = null;
        for (Map.Entry<String, double[]> e : TENANTS.entrySet()) {
            last = e.getKey();
            r -= e.getValue()[0];
            if (r < 0) {
                return e.getKey();
            }
        }
        return last;
    }

    private static int pick(SplittableRandom rng, double[] weights) {
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double r = rng.nextDouble() * total;
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    private static Map<String, double[]> tenants() {
        Map<String, double[]> t = new LinkedHashMap<>();
        t.put("banco-aurora", new double[] {25, 0.9});
        t.put("stark-retail", new double[] {20, 0.1});
        t.put("lojas-sol", new double[] {15, 0.9});
        t.put("hooli", new double[] {15, 0.1});
        t.put("initech", new double[] {15, 0.2});
        t.put("umbrella-health", new double[] {10, 0.3});
        return t;
    }
}
