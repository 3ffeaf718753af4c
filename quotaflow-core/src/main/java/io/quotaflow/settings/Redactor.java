package io.quotaflow.settings;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secrets from text before it is kept or printed (outcome messages, failure headers,
 * {@code /status}, logs, command-line errors). Every secret found becomes {@value #MASK}, or
 * {@code sk-***} style when a provider's fixed, non-secret prefix is kept as a hint; no character of
 * a key body is ever kept.
 *
 * <p>{@link #scrub(String)} needs no key: it removes anything shaped like a provider key
 * ({@code sk-…}, {@code sk-proj-…}, {@code sk-ant-…}, {@code AIza…}, {@code gsk_…}, {@code xai-…},
 * {@code ghp_…}, {@code hf_…}, {@code AKIA…}), {@code Bearer}/{@code Basic} credentials,
 * {@code api_key=…}/{@code "password": "…"} style pairs and masked keys ({@code sk-abcd****wxyz}).
 * {@link #redact(String, String)} adds what only the key itself allows: the key in any letter case,
 * any masked form of it (a run of {@code *}, {@code •}, {@code …}, {@code ...} or {@code xxxx} between
 * a prefix and/or suffix of the key) and any token sharing 8 or more consecutive characters with it.
 */
public final class Redactor {

    /** What a secret is replaced with. */
    public static final String MASK = "***";

    /** Consecutive characters shared with the key that make a token part of it. */
    static final int SHARED_RUN = 8;

    /** Characters a key is made of (the token unit of the key-specific rules). */
    private static final String KEY_CHARS = "\\p{L}\\p{N}_\\-+/";
    private static final String MASK_CHARS = "*\u2022\u25CF\u00B7\u2026";

    /** A key-ish token: key and mask characters, runs of two or more dots only inside it. */
    private static final Pattern TOKEN = Pattern.compile(
            "[" + KEY_CHARS + MASK_CHARS + "]+(?:\\.{2,}[" + KEY_CHARS + MASK_CHARS + "]+)*");

    /** A run of mask characters inside a token: {@code ***}, {@code •••}, {@code …}, {@code ...}, {@code xxxx}. */
    private static final Pattern MASK_RUN = Pattern.compile("[*\u2022\u25CF\u00B7]{3,}|\u2026+|\\.{3,}|[xX]{4,}");

    /** A run of the unambiguous mask characters: alone enough to call a key-ish token masked. */
    private static final Pattern STAR_RUN = Pattern.compile("[*\u2022\u25CF]{3,}");

    private static final String BODY = "[A-Za-z0-9_\\-" + MASK_CHARS + "]";
    private static final String BEFORE = "(?<![A-Za-z0-9_\\-])";

    /** Provider key shapes: group 1 is the kept, non-secret prefix. */
    private static final Pattern[] SHAPES = {
        // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-), DeepSeek and others: at least one
        // digit or mask character, so a hyphenated word after "sk-" survives
        Pattern.compile(BEFORE + "(sk-(?:proj-|ant-|svcacct-|admin-)?)(?=" + BODY + "*[0-9" + MASK_CHARS + "])" + BODY + "{12,}"),
        Pattern.compile(BEFORE + "(AIza)" + BODY + "{20,}"),
        Pattern.compile(BEFORE + "(gsk_)" + BODY + "{20,}"),
        Pattern.compile(BEFORE + "(xai-)" + BODY + "{20,}"),
        Pattern.compile(BEFORE + "(gh[pousr]_|github_pat_)" + BODY + "{20,}"),
        Pattern.compile(BEFORE + "(hf_)" + BODY + "{30,}"),
        Pattern.compile(BEFORE + "(AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])"),
    };

    /**
     * {@code Bearer <token>} / {@code Basic <credentials>}: the token needs a digit or a non-letter, or
     * 24 characters, so "Bearer authentication failed" survives.
     */
    private static final Pattern AUTH_SCHEME = Pattern.compile(
            "(?i)\\b(bearer|basic)(\\s+)(?=[A-Za-z0-9\\-._~+/*\u2022]*[0-9\\-._~+/*\u2022]|[A-Za-z]{24})[A-Za-z0-9\\-._~+/*\u2022]{8,}=*");

    /**
     * {@code api_key=…}, {@code api-key: …}, {@code "api_key":"…"}, {@code x-api-key: …},
     * {@code password="…"} (JAAS), {@code client_secret=…}: group 1 is the name and separator, kept;
     * the value is replaced.
     */
    private static final Pattern PAIR = Pattern.compile(
            "(?i)(\\b(?:[a-z0-9]+[_.\\-])*"
                    + "(?:api[_.\\- ]?key(?:\\s+provided)?|apikey|access[_.\\-]?key|secret(?:[_.\\-]?(?:access[_.\\-]?)?key)?"
                    + "|client[_.\\-]?secret|password|passwd|pwd|passphrase|(?:access|auth|refresh|session|bearer|id)[_.\\-]?token"
                    + "|jaas[_.\\-]config|authorization)"
                    + "[\"']?\\s*[:=]\\s*(?:(?:bearer|basic|token)\\s+)?)"
                    + "(\"(?:[^\"\\\\]|\\\\.)*\"|'[^']*'|[^\\s,;&\"'<>{}\\[\\]()]+)");

    /** What {@link #scrub} leaves of a provider key: kept as is when seen again. */
    private static final Pattern HINT = Pattern.compile(
            "(?:sk-(?:proj-|ant-|svcacct-|admin-)?|AIza|gsk_|xai-|gh[pousr]_|github_pat_|hf_)\\*\\*\\*");

    private Redactor() {
    }

    /**
     * {@code uri} fit to print: credentials in it ({@code user:pass@}) masked, then {@link #scrub}bed.
     * Null-safe.
     */
    public static String url(java.net.URI uri) {
        if (uri == null) {
            return null;
        }
        if (uri.getRawUserInfo() == null) {
            return scrub(uri.toString());
        }
        String text = uri.toString();
        int at = text.indexOf(uri.getRawUserInfo() + "@");
        return scrub(at < 0 ? text : text.substring(0, at) + MASK + text.substring(at + uri.getRawUserInfo().length()));
    }

    /**
     * Shape-based redaction, no key needed: provider key shapes, authorization credentials, secret
     * {@code name=value} pairs and masked keys. Null-safe; ordinary text (rate-limit messages and their
     * numbers included) is returned unchanged.
     */
    public static String scrub(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = replacePairs(text);
        out = AUTH_SCHEME.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + m.group(2) + MASK));
        for (Pattern shape : SHAPES) {
            out = shape.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
        }
        return replaceTokens(out, Redactor::looksMasked);
    }

    /**
     * Removes {@code key} from {@code text} in every form this class knows (see the class comment),
     * then {@link #scrub}s it. A key holding whitespace is only removed whole (any case); a blank or null
     * key only scrubs. Null-safe.
     */
    public static String redact(String text, String key) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        if (key != null && !key.isBlank()) {
            String k = key.strip();
            out = Pattern.compile(Pattern.quote(k), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(out)
                    .replaceAll(MASK);
            if (k.chars().noneMatch(Character::isWhitespace)) {
                // a multi-word secret (a JAAS line) is only removed whole: its words are ordinary words
                KeyForms forms = new KeyForms(k);
                out = replaceTokens(out, forms::matches);
            }
        }
        return scrub(out);
    }

    /**
     * Whether a setting, option or header name holds a secret value ({@code llm.api-key},
     * {@code sasl.jaas.config}, {@code ssl.key.password}, {@code --llm-api-key-file}, ...): its value
     * must never be printed.
     */
    public static boolean isSecretName(String name) {
        if (name == null) {
            return false;
        }
        String n = name.toLowerCase(Locale.ROOT).replaceAll("^-+", "");
        String squashed = n.replaceAll("[^a-z0-9]", "");
        if (squashed.contains("apikey") || squashed.contains("accesskey") || squashed.contains("jaasconfig")) {
            return true;
        }
        String[] parts = n.split("[^a-z0-9]+");
        for (String part : parts) {
            if (Set.of("password", "passwd", "pwd", "passphrase", "secret", "token", "credential", "credentials",
                    "authorization").contains(part)) {
                return true;
            }
        }
        return parts.length > 0 && parts[parts.length - 1].equals("key");
    }

    private static String replacePairs(String text) {
        return PAIR.matcher(text).replaceAll(m -> {
            String value = m.group(2);
            String masked = value.startsWith("\"") ? "\"" + MASK + "\"" : value.startsWith("'") ? "'" + MASK + "'" : MASK;
            return Matcher.quoteReplacement(m.group(1) + masked);
        });
    }

    /** Replaces every {@link #TOKEN} the predicate accepts with {@link #MASK}. */
    private static String replaceTokens(String text, java.util.function.Predicate<String> secret) {
        Matcher m = TOKEN.matcher(text);
        StringBuilder sb = null;
        int last = 0;
        while (m.find()) {
            String token = m.group();
            if (!HINT.matcher(token).matches() && !token.equals(MASK) && secret.test(token)) {
                if (sb == null) {
                    sb = new StringBuilder(text.length());
                }
                sb.append(text, last, m.start()).append(MASK);
                last = m.end();
            }
        }
        if (sb == null) {
            return text;
        }
        return sb.append(text, last, text.length()).toString();
    }

    /** A key-ish token with a run of {@code *} or {@code •} and at least four letters or digits: a masked key. */
    private static boolean looksMasked(String token) {
        if (!STAR_RUN.matcher(token).find()) {
            return false;
        }
        long alnum = token.chars().filter(Character::isLetterOrDigit).count();
        return alnum >= 4;
    }

    /** The forms of one key the token rules look for. */
    private static final class KeyForms {

        private final String lower;
        private final int run;
        private final Set<String> windows = new HashSet<>();

        KeyForms(String key) {
            this.lower = key.toLowerCase(Locale.ROOT);
            this.run = Math.min(SHARED_RUN, lower.length());
            for (int i = 0; i + run <= lower.length(); i++) {
                windows.add(lower.substring(i, i + run));
            }
        }

        boolean matches(String token) {
            String t = token.toLowerCase(Locale.ROOT);
            if (t.length() >= run) {
                for (int i = 0; i + run <= t.length(); i++) {
                    if (windows.contains(t.substring(i, i + run))) {
                        return true;
                    }
                }
            }
            return masked(t);
        }

        /** A prefix and/or a suffix of the key around mask runs ({@code sk-leakc********2345}). */
        private boolean masked(String t) {
            Matcher m = MASK_RUN.matcher(t);
            int first = -1;
            int end = -1;
            while (m.find()) {
                if (first < 0) {
                    first = m.start();
                }
                end = m.end();
            }
            if (first < 0) {
                return false;
            }
            String pre = t.substring(0, first);
            String post = t.substring(end);
            boolean preOk = pre.isEmpty() || lower.startsWith(pre);
            boolean postOk = post.isEmpty() || lower.endsWith(post);
            return preOk && postOk && pre.length() + post.length() >= 3;
        }
    }
}
