package io.quotaflow.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/** Fills the placeholders of a sentence with random but plausible values. */
final class TicketFiller {

    private static final String[] MONTHS_EN = {"January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December"};
    private static final String[] MONTHS_PT = {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
            "setembro", "outubro", "novembro", "dezembro"};
    private static final String[] MONTHS_SHORT_EN = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
            "Nov", "Dec"};

    private final SplittableRandom rng;
    private final Phrases.Language lang;
    private final boolean pt;

    TicketFiller(SplittableRandom rng, Phrases.Language lang) {
        this.rng = rng;
        this.lang = lang;
        this.pt = lang == Phrases.PT;
    }

    /** Values that name one thing of the ticket (its order, invoice, date, ...) stay the same throughout it. */
    private final Map<String, String> stable = new HashMap<>();

    String apply(String template) {
        if (template.indexOf('{') < 0) {
            return template;
        }
        StringBuilder out = new StringBuilder(template.length() + 16);
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            int close = c == '{' ? template.indexOf('}', i) : -1;
            if (close < 0) {
                out.append(c);
                i++;
                continue;
            }
            out.append(value(template.substring(i + 1, close)));
            i = close + 1;
        }
        return out.toString();
    }

    private String value(String name) {
        return switch (name) {
            case "order", "invoice", "date", "amount", "amount2", "device" -> stable.computeIfAbsent(name, this::fresh);
            default -> fresh(name);
        };
    }

    private String fresh(String name) {
        int month = 1 + rng.nextInt(10);
        int day = 1 + rng.nextInt(28);
        return switch (name) {
            case "order" -> (pt ? "PED-" : "#") + (100_000 + rng.nextInt(900_000));
            case "invoice" -> pt ? "NF-" + (10_000 + rng.nextInt(90_000)) : "INV-2025-" + (10_000 + rng.nextInt(90_000));
            case "amount", "amount2" -> amount();
            case "date" -> pt ? String.format(Locale.ROOT, "%02d/%02d", day, month) : MONTHS_SHORT_EN[month - 1] + " " + day;
            case "iso" -> String.format(Locale.ROOT, "2025-%02d-%02d", month, day);
            case "time" -> String.format(Locale.ROOT, "%02d:%02d:%02d", rng.nextInt(24), rng.nextInt(60), rng.nextInt(60));
            case "city" -> oneOf(rng, Phrases.CITIES);
            case "device" -> oneOf(rng, Phrases.DEVICES);
            case "month" -> (pt ? MONTHS_PT : MONTHS_EN)[rng.nextInt(12)];
            case "name" -> name(false);
            case "n" -> Integer.toString(2 + rng.nextInt(8));
            case "n5" -> Integer.toString(10_000 + rng.nextInt(90_000));
            case "ms" -> Integer.toString(1_000 + rng.nextInt(29_000));
            case "ref" -> "REF-" + (100_000 + rng.nextInt(900_000));
            default -> throw new IllegalStateException("unknown placeholder {" + name + "}");
        };
    }

    /** An amount whose whole part is never 500–504 (a status code the classifier would read as technical). */
    private String amount() {
        int whole = 10 + rng.nextInt(990);
        if (whole >= 500 && whole <= 504) {
            whole += 10;
        }
        int cents = rng.nextInt(100);
        return pt ? String.format(Locale.ROOT, "R$ %d,%02d", whole, cents) : String.format(Locale.ROOT, "$%d.%02d", whole, cents);
    }

    /** A first name of the language, with a surname when {@code full}. */
    String name(boolean full) {
        List<String> first = pt ? Phrases.FIRST_NAMES_PT : Phrases.FIRST_NAMES_EN;
        List<String> last = pt ? Phrases.LAST_NAMES_PT : Phrases.LAST_NAMES_EN;
        String f = oneOf(rng, first);
        return full ? f + " " + oneOf(rng, last) : f;
    }

    /** The language the ticket is written in. */
    Phrases.Language language() {
        return lang;
    }

    /** One of {@code values}, uniformly. */
    static <T> T oneOf(SplittableRandom rng, List<T> values) {
        return values.get(rng.nextInt(values.size()));
    }
}
