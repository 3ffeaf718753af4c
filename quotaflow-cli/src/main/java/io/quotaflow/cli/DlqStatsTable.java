package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterReport;

import java.util.Map;

/** {@code dlq stats} as text: a headline, then one table per breakdown. */
final class DlqStatsTable {

    private DlqStatsTable() {
    }

    static String render(DeadLetterReport r) {
        StringBuilder sb = new StringBuilder();
        if (r.total() == 0) {
            sb.append(r.topic()).append(": no dead letters\n");
            return sb.toString();
        }
        sb.append(r.topic()).append(": ").append(r.total()).append(r.total() == 1 ? " dead letter" : " dead letters")
                .append(", oldest ").append(r.oldest()).append(", newest ").append(r.newest()).append('\n');
        sb.append("replayed before (qf.replay.count > 0): ").append(r.replayed()).append('\n');
        counts(sb, "error kind", r.byKind());
        counts(sb, "error status", r.byStatus());
        counts(sb, "origin topic", r.byOriginTopic());
        sb.append('\n').append("top error messages").append(r.messagesTruncated() ? " (approximate: too many distinct)" : "")
                .append('\n');
        int width = r.topMessages().stream().mapToInt(m -> Long.toString(m.count()).length()).max().orElse(1);
        for (DeadLetterReport.MessageCount m : r.topMessages()) {
            sb.append("  ").append(" ".repeat(width - Long.toString(m.count()).length())).append(m.count())
                    .append("  ").append(m.message()).append('\n');
        }
        return sb.toString();
    }

    private static void counts(StringBuilder sb, String heading, Map<String, Long> counts) {
        int nameWidth = heading.length();
        int countWidth = "count".length();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            nameWidth = Math.max(nameWidth, e.getKey().length());
            countWidth = Math.max(countWidth, Long.toString(e.getValue()).length());
        }
        sb.append('\n');
        sb.append(pad(heading, nameWidth)).append("  ").append(padLeft("count", countWidth)).append('\n');
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            sb.append(pad(e.getKey(), nameWidth)).append("  ").append(padLeft(Long.toString(e.getValue()), countWidth))
                    .append('\n');
        }
    }

    static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }

    static String padLeft(String s, int width) {
        return " ".repeat(Math.max(0, width - s.length())) + s;
    }
}
