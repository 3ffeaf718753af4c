package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders benchmark results as an aligned text table (for the console) or a Markdown table with
 * footnotes (for the README's Performance section). Columns: scenario, 429s, steady-state use of
 * the binding limit, tokens per ticket admitted and used, wall time, category and urgency accuracy,
 * duplicates, and a window note.
 */
public final class ResultTable {

    static final List<String> HEADERS = List.of("scenario", "429s", "steady-state use of binding limit",
            "tokens/ticket (admitted)", "tokens/ticket (used)", "wall time", "category accuracy", "urgency accuracy",
            "duplicates", "window");
    private static final String NONE = "–";

    private ResultTable() {
    }

    /** One row's cells, in {@link #HEADERS} order. */
    static List<String> cells(ScenarioResult r) {
        List<String> c = new ArrayList<>(HEADERS.size());
        c.add("(" + r.key() + ") " + r.scenario());
        c.add(r.http429() == null ? NONE : Long.toString(r.http429()));
        if (r.steadyState() != null && r.steadyState().measured()) {
            c.add(String.format(Locale.ROOT, "%.1f %% of %s", r.steadyState().use() * 100, r.binding()));
        } else {
            c.add(NONE);
        }
        c.add(String.format(Locale.ROOT, "%.1f", r.tokensPerTicketAdmitted()));
        c.add(String.format(Locale.ROOT, "%.1f", r.tokensPerTicketUsed()));
        c.add(r.wallTimeMs() == null ? NONE : duration(r.wallTimeMs()));
        c.add(percent(r.categoryAccuracy()));
        c.add(percent(r.urgencyAccuracy()));
        c.add(r.duplicates() == null ? NONE : Long.toString(r.duplicates()));
        if (r.computed()) {
            c.add("computed");
        } else if (Scenario.CHAOS.equals(r.key())) {
            c.add("none (kills)");
        } else if (r.steadyState() == null || !r.steadyState().measured()) {
            c.add("too short");
        } else {
            c.add((r.steadyState().shortRun() ? "+10 s †" : "+60 s") + ", " + r.steadyState().windowSeconds() + " s");
        }
        return c;
    }

    /** An aligned plain-text table. */
    public static String text(List<ScenarioResult> results) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADERS);
        results.forEach(r -> rows.add(cells(r)));
        int[] widths = new int[HEADERS.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                boolean left = i == 0 || i == HEADERS.size() - 1;
                String pad = " ".repeat(widths[i] - cell.length());
                sb.append(left ? cell + pad : pad + cell);
                if (i < row.size() - 1) {
                    sb.append("  ");
                }
            }
            sb.append(System.lineSeparator());
            if (r == 0) {
                int total = 0;
                for (int w : widths) {
                    total += w + 2;
                }
                sb.append("-".repeat(total - 2)).append(System.lineSeparator());
            }
        }
        return sb.toString();
    }

    /** A Markdown table with footnotes explaining the columns. */
    public static String markdown(List<ScenarioResult> results, long seed, String command) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", HEADERS)).append(" |\n");
        sb.append("|");
        for (int i = 0; i < HEADERS.size(); i++) {
            sb.append(i == 0 || i == HEADERS.size() - 1 ? "---|" : "---:|");
        }
        sb.append('\n');
        for (ScenarioResult r : results) {
            sb.append("| ").append(String.join(" | ", cells(r).stream().map(ResultTable::escape).toList())).append(" |\n");
        }
        sb.append('\n');
        if (command != null) {
            sb.append("Command: `").append(command).append("` (seed ").append(seed).append(").\n\n");
        }
        sb.append("- **Scenarios**: ");
        List<String> described = new ArrayList<>();
        for (ScenarioResult r : results) {
            described.add("(" + r.key() + ") " + r.scenario() + ": " + r.description() + ", " + r.tickets() + " tickets");
        }
        sb.append(String.join("; ", described)).append(".\n");
        sb.append("- **Steady-state use**: what the provider simulator admitted of the binding limit (TPM counts prompt + "
                + "`max_tokens`, as providers charge) between first arrival + 60 s and last answer − 10 s, divided by "
                + "limit / 60 × the window's seconds. The pipeline's limiter runs at a safety factor of 0.98, so about "
                + "98 % is the ceiling over a long window. † a run shorter than 80 s starts the window at first arrival + 10 s "
                + "instead; such a short window still holds the limiter's first burst and can read above 100 %.\n");
        sb.append("- **Tokens/ticket**: admitted = what the TPM bucket was charged (prompt + `max_tokens`) per ticket; "
                + "used = prompt + completion tokens per ticket.\n");
        sb.append("- **Accuracy**: share of classified tickets whose category (urgency) matches the label the generator "
                + "wrote the ticket to have; the simulator's model is a keyword classifier, and some tickets are written "
                + "to mislead it.\n");
        sb.append("- **Duplicates**: classifications seen more than once by a `read_committed` consumer (must be 0).\n");
        for (ScenarioResult r : results) {
            for (String note : r.notes()) {
                sb.append("- (").append(r.key()).append(") ").append(note).append(".\n");
            }
        }
        return sb.toString();
    }

    /** {@code 4 m 07 s} or {@code 12.3 s}. */
    public static String duration(long ms) {
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = Math.round(ms / 1000.0);
        return String.format(Locale.ROOT, "%d m %02d s", s / 60, s % 60);
    }

    public static String percent(Double share) {
        return share == null ? NONE : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }
}
