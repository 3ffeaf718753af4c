package io.quotaflow.simulator;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The provider simulator's stand-in for a model: deterministic keyword rules, English and
 * Portuguese, over a ticket's subject and body. Text is lower-cased and stripped of accents first,
 * so {@code cobrança} and {@code cobranca} match alike. A keyword is a whole word or phrase; a
 * trailing {@code *} makes it a prefix ({@code refund*} matches {@code refunded}).
 *
 * <p>Category: the category with the most keyword hits wins; ties go to the earlier of billing,
 * shipping, account, technical; no hit gives {@code other}. Urgency: the first rule that hits of
 * critical, high, low; otherwise {@code medium}.
 *
 * <p>Only values allowed by the request are returned (compared case-insensitively, returned in
 * the request's spelling). When a rule's value is not allowed, the category falls back to the
 * <em>last</em> allowed value (conventionally the catch-all, such as {@code other}) and the
 * urgency to the <em>second</em> allowed value (conventionally the neutral one, such as
 * {@code medium} in {@code low, medium, high, critical}), or the first when only one is allowed.
 *
 * <p>Thread-safe and stateless.
 */
public final class KeywordClassifier {

    public static final List<String> DEFAULT_CATEGORIES = List.of("billing", "technical", "account", "shipping", "other");
    public static final List<String> DEFAULT_URGENCIES = List.of("low", "medium", "high", "critical");

    /** Category rules in tie-break order. */
    private static final Map<String, Rule> CATEGORY_RULES = new LinkedHashMap<>();
    /** Urgency rules in precedence order. */
    private static final Map<String, Rule> URGENCY_RULES = new LinkedHashMap<>();

    static {
        CATEGORY_RULES.put("billing", rule(
                "invoice*", "refund*", "charge", "charges", "charged", "charging", "overcharg*", "payment*",
                "pay", "paid", "billing", "billed", "bill", "bills", "subscription*", "receipt*", "credit card",
                "price", "pricing", "plan upgrade",
                "fatura*", "cobranca*", "cobrad*", "cobrar", "reembolso*", "pagamento*", "pagar", "pago",
                "boleto*", "estorno*", "cartao de credito", "nota fiscal", "mensalidade*", "assinatura*"));
        CATEGORY_RULES.put("shipping", rule(
                "deliver*", "package*", "parcel*", "tracking", "track", "tracked", "shipped", "shipping",
                "shipment*", "ship", "courier", "carrier", "arrived", "arrive", "never arrived", "lost in transit",
                "entrega*", "entregue*", "pacote*", "encomenda*", "rastreio*", "rastrear", "rastreamento",
                "envio*", "enviad*", "frete", "correios", "transportadora", "chegou"));
        CATEGORY_RULES.put("account", rule(
                "password*", "login*", "log in", "logon", "sign in", "signin", "sign-in", "account*", "2fa",
                "two-factor", "two factor", "mfa", "username*", "locked out", "reset link", "profile",
                "senha*", "conta", "contas", "acesso*", "acessar", "login", "cadastro*", "autenticacao",
                "usuario*", "perfil"));
        CATEGORY_RULES.put("technical", rule(
                "error*", "crash*", "bug", "bugs", "buggy", "api", "apis", "timeout*", "timed out", "time out",
                "exception*", "stack trace", "broken", "not loading", "slow", "latency", "webhook*", "sdk",
                "integration*", "500", "502", "503", "504", "freez*", "glitch*",
                "erro", "erros", "falha*", "travando", "trava", "travou", "lento", "lentidao", "bugad*",
                "quebrad*", "instabilidade", "nao carrega", "integracao"));

        URGENCY_RULES.put("critical", rule(
                "outage*", "downtime", "is down", "are down", "went down", "goes down", "site down",
                "server down", "service down", "system down", "app down", "completely down", "security breach", "breach*", "hacked", "data leak*",
                "urgent*", "emergenc*", "critical", "production down", "production is down",
                "fora do ar", "urgente*", "emergencia*", "vazamento*", "invadid*", "invasao", "critico"));
        URGENCY_RULES.put("high", rule(
                "cannot", "can't", "cant", "can not", "unable", "blocked", "blocking", "asap",
                "as soon as possible", "not working", "doesn't work", "does not work", "stuck", "immediately",
                "nao consigo", "nao consegui", "nao funciona", "bloquead*", "impossivel", "imediatamente",
                "o quanto antes", "parou de funcionar"));
        URGENCY_RULES.put("low", rule(
                "question*", "feature request*", "how do i", "how can i", "wondering", "suggestion*",
                "would be nice", "just curious", "feedback", "no rush",
                "duvida*", "sugestao*", "sugestoes", "pergunta*", "gostaria de saber", "como faco",
                "sem pressa"));
    }

    /** One classification. */
    public record Result(String category, String urgency) {
    }

    /**
     * Classifies a ticket with the default closed sets.
     *
     * @param subject may be null
     * @param body    may be null
     */
    public Result classify(String subject, String body) {
        return classify(subject, body, DEFAULT_CATEGORIES, DEFAULT_URGENCIES);
    }

    /**
     * Classifies a ticket, answering only with allowed values.
     *
     * @param categories allowed categories; null or empty means {@link #DEFAULT_CATEGORIES}
     * @param urgencies  allowed urgencies; null or empty means {@link #DEFAULT_URGENCIES}
     */
    public Result classify(String subject, String body, List<String> categories, List<String> urgencies) {
        List<String> cats = categories == null || categories.isEmpty() ? DEFAULT_CATEGORIES : categories;
        List<String> urgs = urgencies == null || urgencies.isEmpty() ? DEFAULT_URGENCIES : urgencies;
        String text = normalize((subject == null ? "" : subject) + "\n" + (body == null ? "" : body));
        String category = allowed(ruleCategory(text), cats, cats.get(cats.size() - 1));
        String urgency = allowed(ruleUrgency(text), urgs, urgs.size() >= 2 ? urgs.get(1) : urgs.get(0));
        return new Result(category, urgency);
    }

    /** Every rule, category rules first (for tests). */
    static List<Rule> rules() {
        List<Rule> all = new ArrayList<>(CATEGORY_RULES.values());
        all.addAll(URGENCY_RULES.values());
        return all;
    }

    /** What the rules say, before restricting to the allowed values. */
    static String ruleCategory(String normalizedText) {
        String best = "other";
        int bestHits = 0;
        for (Map.Entry<String, Rule> rule : CATEGORY_RULES.entrySet()) {
            int hits = rule.getValue().count(normalizedText);
            if (hits > bestHits) {
                best = rule.getKey();
                bestHits = hits;
            }
        }
        return best;
    }

    static String ruleUrgency(String normalizedText) {
        for (Map.Entry<String, Rule> rule : URGENCY_RULES.entrySet()) {
            if (rule.getValue().count(normalizedText) > 0) {
                return rule.getKey();
            }
        }
        return "medium";
    }

    private static String allowed(String wanted, List<String> allowedValues, String fallback) {
        for (String value : allowedValues) {
            if (value != null && value.equalsIgnoreCase(wanted)) {
                return value;
            }
        }
        return fallback;
    }

    /** Lower case, no diacritics, typographic apostrophes as ASCII. */
    static String normalize(String text) {
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFD);
        return decomposed.replaceAll("\\p{M}+", "")
                .replace('\u2019', '\'')
                .replace('\u2018', '\'')
                .toLowerCase(Locale.ROOT);
    }

    private static Rule rule(String... keywords) {
        List<String> alternatives = new ArrayList<>();
        java.util.Set<String> starts = new java.util.HashSet<>();
        for (String keyword : keywords) {
            boolean prefix = keyword.endsWith("*");
            String word = normalize(prefix ? keyword.substring(0, keyword.length() - 1) : keyword).trim();
            String first = word.split("\\s+")[0];
            // a match starts with the first part's characters (the whitespace after a one-character
            // part may be any whitespace, so only that one character is known)
            starts.add(first.substring(0, Math.min(2, first.length())));
            StringBuilder regex = new StringBuilder();
            for (String part : word.split("\\s+")) {
                if (regex.length() > 0) {
                    regex.append("\\s+");
                }
                regex.append(Pattern.quote(part));
            }
            if (prefix) {
                regex.append("\\w*");
            }
            alternatives.add(regex.toString());
        }
        // Longer alternatives first so a phrase wins over its first word.
        alternatives.sort((a, b) -> Integer.compare(b.length(), a.length()));
        return new Rule(Pattern.compile("(?<!\\w)(?:" + String.join("|", alternatives) + ")(?!\\w)",
                Pattern.UNICODE_CHARACTER_CLASS), starts);
    }

    /**
     * One rule's pattern, and the first two characters of its keywords. Counting is exactly
     * {@code while (matcher.find()) hits++}, but the pattern is only tried where the text has one of
     * those two-character starts (every match begins with one): trying a long alternation at every
     * position made this classifier the simulator's, and so the overhead benchmark's, largest cost.
     */
    record Rule(Pattern pattern, java.util.Set<String> starts, boolean[] asciiStarts) {

        Rule(Pattern pattern, java.util.Set<String> starts) {
            this(pattern, java.util.Set.copyOf(starts), ascii(starts));
        }

        /** Index c for a one-character start, 128 + a * 128 + b for a two-character one (ASCII only). */
        private static boolean[] ascii(java.util.Set<String> starts) {
            boolean[] table = new boolean[128 + 128 * 128];
            for (String s : starts) {
                if (s.chars().allMatch(c -> c < 128)) {
                    table[s.length() == 1 ? s.charAt(0) : 128 + s.charAt(0) * 128 + s.charAt(1)] = true;
                }
            }
            return table;
        }

        private boolean startsAt(String text, int i) {
            char a = text.charAt(i);
            if (a < 128 && asciiStarts[a]) {
                return true;
            }
            if (i + 1 >= text.length()) {
                return a >= 128 && starts.contains(String.valueOf(a));
            }
            char b = text.charAt(i + 1);
            if (a < 128 && b < 128) {
                return asciiStarts[128 + a * 128 + b];
            }
            return starts.contains(String.valueOf(a)) || starts.contains(text.substring(i, i + 2));
        }

        int count(String text) {
            Matcher m = pattern.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
            int hits = 0;
            int i = 0;
            while (i < text.length()) {
                if (startsAt(text, i) && m.region(i, text.length()).lookingAt()) {
                    hits++;
                    i = Math.max(m.end(), i + 1);
                } else {
                    i++;
                }
            }
            return hits;
        }
    }
}
