package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterView;

import java.util.Base64;
import java.util.Optional;

/**
 * One dead letter as {@code dlq show} prints it: a line with where and what, then one line per
 * header and one for the value, each on a single line (control characters escaped).
 *
 * <pre>
 * tickets.dlq 0:17  2026-11-30T06:00:05Z  key T-1042
 *   qf.error.kind     retries-exhausted
 *   qf.error.status   503
 *   value (61 bytes)  {"id":"T-1042","subject":"Charged twice"}
 * </pre>
 */
final class DeadLetterText {

    /** Characters of a value printed at most; the rest is counted. */
    static final int MAX_VALUE_CHARS = 2_000;

    private DeadLetterText() {
    }

    static String render(DeadLetterView d) {
        StringBuilder sb = new StringBuilder();
        sb.append(d.topic()).append(' ').append(d.partition()).append(':').append(d.offset()).append("  ")
                .append(d.timestamp() == null ? "(no timestamp)" : d.timestamp().toString()).append("  ")
                .append(d.key() == null ? "(no key)" : "key " + oneLine(d.key())).append('\n');
        String valueLabel = valueLabel(d);
        int width = valueLabel.length();
        for (DeadLetterView.HeaderView h : d.headers()) {
            width = Math.max(width, h.name().length());
        }
        for (DeadLetterView.HeaderView h : d.headers()) {
            sb.append("  ").append(DlqStatsTable.pad(oneLine(h.name()), width)).append("  ").append(oneLine(h.text()))
                    .append('\n');
        }
        sb.append("  ").append(DlqStatsTable.pad(valueLabel, width)).append("  ").append(value(d)).append('\n');
        return sb.toString();
    }

    private static String valueLabel(DeadLetterView d) {
        if (d.value() == null) {
            return "value";
        }
        return "value (" + d.value().length + " bytes" + (d.valueText().isPresent() ? ")" : ", not UTF-8)");
    }

    private static String value(DeadLetterView d) {
        if (d.value() == null) {
            return "(null)";
        }
        Optional<String> text = d.valueText();
        String shown = text.map(DeadLetterText::oneLine)
                .orElseGet(() -> "base64:" + Base64.getEncoder().encodeToString(d.value()));
        if (shown.length() <= MAX_VALUE_CHARS) {
            return shown;
        }
        return shown.substring(0, MAX_VALUE_CHARS) + "… (" + (shown.length() - MAX_VALUE_CHARS) + " more characters)";
    }

    /** Newlines, tabs and other control characters as escapes, so a value stays on its line. */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (Character.isISOControl(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
