package io.quotaflow.bench;

import io.quotaflow.settings.Prices;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Renders benchmark results as two aligned text tables (for the console) or two Markdown tables with
 * footnotes (for docs/benchmark.md), each within about 100 columns:
 *
 * <ol>
 *   <li><b>quota and losses</b>: scenario, 429s, lost, duplicates, steady-state and whole-run use of
 *       the binding limit (% of what the provider would have admitted), classified tickets per busy
 *       minute, the ratio to the baseline's, wall time; a scenario with a baseline is followed by the
 *       baseline's own row;</li>
 *   <li><b>tokens, accuracy, speed</b>: scenario, tokens per ticket admitted and used, category and
 *       urgency accuracy, speed (tickets per second of the overhead scenario, the interactive p99,
 *       records per second of the replay), and the steady-state window.</li>
 * </ol>
 * A dash marks a figure that does not apply to the row.
 */
public final class ResultTable {

    static final List<String> QUOTA_HEADERS = List.of("scenario", "429s", "lost", "dup", "steady state", "whole run",
            "tickets/min", "× base", "wall time");
    static final List<String> DETAIL_HEADERS = List.of("scenario", "adm/ticket", "used/ticket", "category", "urgency",
            "speed", "$/1k tickets", "window");
    /** The prices the cost column assumes: the simulator charges nothing. */
    static final Prices ASSUMED_PRICES = Prices.ASSUMED_GPT_4O_MINI;
    static final String QUOTA_TITLE = "Quota use, losses and throughput";
    static final String DETAIL_TITLE = "Tokens, accuracy, overhead, latency and replay";
    private static final String NONE = "–";

    private ResultTable() {
    }

    /** The label of a scenario's row: {@code (a) tpm-binds}. */
    static String label(ScenarioResult r) {
        return "(" + r.key() + ") " + r.scenario();
    }

    /** The label of a baseline row: {@code (g) baseline}. */
    static String baselineLabel(ScenarioResult r) {
        return "(" + r.key() + ") baseline";
    }

    /** A scenario's row of the quota table, in {@link #QUOTA_HEADERS} order. */
    static List<String> quotaCells(ScenarioResult r) {
        ScenarioFigures f = r.figures();
        List<String> c = new ArrayList<>(QUOTA_HEADERS.size());
        c.add(label(r));
        c.add(count(r.http429()));
        c.add(count(lost(r)));
        c.add(count(r.duplicates()));
        c.add(steady(r.steadyState()));
        c.add(whole(f.wholeRun()));
        c.add(perMinute(f.ticketsPerBusyMinute()));
        c.add(f.baselineRatio() == null ? NONE : String.format(Locale.ROOT, "%.2f×", f.baselineRatio()));
        c.add(r.wallTimeMs() == null ? NONE : duration(r.wallTimeMs()));
        return c;
    }

    /** The baseline's row of the quota table. */
    static List<String> quotaCells(ScenarioResult r, BaselineResult b) {
        List<String> c = new ArrayList<>(QUOTA_HEADERS.size());
        c.add(baselineLabel(r));
        c.add(Long.toString(b.http429()));
        c.add(Long.toString(b.lost()));
        c.add(NONE);
        c.add(steady(b.steadyState()));
        c.add(whole(b.wholeRun()));
        c.add(perMinute(b.ticketsPerBusyMinute()));
        c.add(NONE);
        c.add(duration(b.busyMs()));
        return c;
    }

    /** A scenario's row of the detail table, in {@link #DETAIL_HEADERS} order. */
    static List<String> detailCells(ScenarioResult r) {
        ScenarioFigures f = r.figures();
        boolean replay = f.replay() != null;
        List<String> c = new ArrayList<>(DETAIL_HEADERS.size());
        c.add(label(r));
        c.add(replay ? NONE : String.format(Locale.ROOT, "%.1f", r.tokensPerTicketAdmitted()));
        c.add(replay ? NONE : String.format(Locale.ROOT, "%.1f", r.tokensPerTicketUsed()));
        c.add(percent(r.categoryAccuracy()));
        c.add(percent(r.urgencyAccuracy()));
        c.add(speed(f));
        c.add(replay ? NONE : costPerThousand(r.promptTokens(), r.completionTokens(), r.classified()));
        c.add(window(r));
        return c;
    }

    /** The baseline's row of the detail table. */
    static List<String> detailCells(ScenarioResult r, BaselineResult b) {
        long n = Math.max(1, b.tickets());
        List<String> c = new ArrayList<>(DETAIL_HEADERS.size());
        c.add(baselineLabel(r));
        c.add(String.format(Locale.ROOT, "%.1f", b.tokensAdmitted() / (double) n));
        c.add(String.format(Locale.ROOT, "%.1f", (b.promptTokens() + b.completionTokens()) / (double) n));
        c.add(percent(b.categoryAccuracy()));
        c.add(percent(b.urgencyAccuracy()));
        c.add(NONE);
        c.add(costPerThousand(b.promptTokens(), b.completionTokens(), b.classified()));
        c.add(window(b.steadyState(), false));
        return c;
    }

    /** The quota table's rows: each result, then its baseline's row when it has one. */
    static List<List<String>> quotaRows(List<ScenarioResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioResult r : results) {
            rows.add(quotaCells(r));
            if (r.figures().baseline() != null) {
                rows.add(quotaCells(r, r.figures().baseline()));
            }
        }
        return rows;
    }

    /** The detail table's rows. */
    static List<List<String>> detailRows(List<ScenarioResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (ScenarioResult r : results) {
            rows.add(detailCells(r));
            if (r.figures().baseline() != null) {
                rows.add(detailCells(r, r.figures().baseline()));
            }
        }
        return rows;
    }

    /** Two aligned plain-text tables, each with a title. */
    public static String text(List<ScenarioResult> results) {
        String nl = System.lineSeparator();
        return QUOTA_TITLE + nl + aligned(QUOTA_HEADERS, quotaRows(results)) + nl + DETAIL_TITLE + nl
                + aligned(DETAIL_HEADERS, detailRows(results));
    }

    private static String aligned(List<String> headers, List<List<String>> body) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(headers);
        rows.addAll(body);
        int[] widths = new int[headers.size()];
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
                boolean left = i == 0 || i == headers.size() - 1;
                String pad = " ".repeat(widths[i] - cell.length());
                sb.append(left ? cell + pad : pad + cell);
                if (i < row.size() - 1) {
                    sb.append("  ");
                }
            }
            // no trailing blanks after a left-aligned last column
            while (sb.length() > 0 && sb.charAt(sb.length() - 1) == ' ') {
                sb.setLength(sb.length() - 1);
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

    private static void markdownTable(StringBuilder sb, List<String> headers, List<List<String>> rows) {
        sb.append("| ").append(String.join(" | ", headers)).append(" |\n");
        sb.append("|");
        for (int i = 0; i < headers.size(); i++) {
            sb.append(i == 0 || i == headers.size() - 1 ? "---|" : "---:|");
        }
        sb.append('\n');
        for (List<String> row : rows) {
            sb.append("| ").append(String.join(" | ", row.stream().map(ResultTable::escape).toList())).append(" |\n");
        }
    }

    /** Two Markdown tables with footnotes explaining the columns. */
    public static String markdown(List<ScenarioResult> results, long seed, String command) {
        StringBuilder sb = new StringBuilder();
        markdownTable(sb, QUOTA_HEADERS, quotaRows(results));
        sb.append('\n');
        markdownTable(sb, DETAIL_HEADERS, detailRows(results));
        sb.append('\n');
        if (command != null) {
            sb.append("Command: `").append(command).append("` (seed ").append(seed).append(").\n\n");
        }
        sb.append("- **Scenarios**: ");
        List<String> described = new ArrayList<>();
        for (ScenarioResult r : results) {
            described.add("(" + r.key() + ") " + r.scenario() + ": " + r.description() + ", " + r.tickets()
                    + (r.figures().replay() != null ? " dead letters" : " tickets"));
        }
        sb.append(String.join("; ", described)).append(".\n");
        sb.append("- **429s, lost, dup**: answers the simulator refused with 429; tickets neither classified nor dead-lettered "
                + "(for a baseline: tickets of groups that failed all 5 tries; for (k): dead letters not back on their origin "
                + "topic); classifications a `read_committed` consumer saw more than once. All three must be 0 for quotaflow.\n");
        sb.append("- **Steady state**: what the provider simulator admitted of the binding limit (TPM counts prompt + "
                + "`max_tokens`, as providers charge) between first arrival + 60 s and last answer − 10 s, divided by "
                + "limit / 60 × the window's seconds: the share of what the provider would have admitted. The pipeline's limiter "
                + "runs at a safety factor of 0.98, so about 98 % is the ceiling over a long window. † a run shorter than 80 s "
                + "starts the window at first arrival + 10 s instead; such a short window still holds the first burst and can "
                + "read above 100 %.\n");
        sb.append("- **Whole run**: everything the simulator admitted of the binding limit, divided by the most it would have "
                + "admitted to one key from the first call to the last answer: its buckets' starting level (once) plus the "
                + "refill over that span (`SimulatorStats.admissibleTokens`).\n");
        sb.append("- **Tickets/min**: classified tickets per busy minute, busy = first call to last answer. **× base** is that "
                + "figure over the baseline's: the fixed-batch baseline (4 workers, groups of 10, a 60 s window of 0.85 × TPM "
                + "reserving ⌈characters / 3.5⌉ + 40 per ticket, corrected to `usage.total_tokens`; on a 429 `retry-after` + "
                + "0–500 ms; 5 tries per group) run on a fresh simulator of the same shape with the same tickets; its row follows.\n");
        sb.append("- **adm/ticket, used/ticket**: admitted = what the TPM bucket was charged (prompt + `max_tokens`) per ticket; "
                + "used = prompt + completion tokens per ticket, as the simulator counts them.\n");
        sb.append("- **$/1k tickets**: what the provider's usage (prompt and completion tokens as the simulator counts them) "
                + "would cost per 1 000 classified tickets at *assumed* prices, gpt-4o-mini's " + ASSUMED_PRICES.describe()
                + "; the simulator charges nothing, and a real provider's prices and token counts differ.\n");
        sb.append("- **Category, urgency**: share of classified tickets whose category (urgency) matches the label the generator "
                + "wrote the ticket to have; the simulator's model is a keyword classifier, and some tickets are written "
                + "to mislead it.\n");
        sb.append("- **Speed**: (i) tickets / (last result's `classifiedAt` − first publish), and the pipeline's own CPU "
                + "microseconds a ticket over the same span (its threads' in the bench JVM; its process's in a JVM of its own); "
                + "(j) nearest-rank 99th "
                + "percentile of the interactive tickets' publish → `classifiedAt` (with 30 tickets: the slowest); "
                + "(k) dead letters replayed with `--rate 0` / the replay's elapsed time.\n");
        for (ScenarioResult r : results) {
            for (String note : r.notes()) {
                sb.append("- (").append(r.key()).append(") ").append(note).append(".\n");
            }
            BaselineResult b = r.figures().baseline();
            if (b != null) {
                sb.append("- (").append(r.key()).append(") ").append(baselineNote(r, b)).append(".\n");
            }
        }
        return sb.toString();
    }

    /** One line on a baseline run: what it lost and why, and the ratios. */
    static String baselineNote(ScenarioResult r, BaselineResult b) {
        ScenarioFigures f = r.figures();
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "baseline: %d tickets, %d classified, %d lost (%d groups), %d calls, %d × 429",
                b.tickets(), b.classified(), b.lost(), b.lostGroups(), b.calls(), b.http429()));
        if (!b.failuresByStatus().isEmpty()) {
            sb.append(", other failed tries by status ").append(b.failuresByStatus());
        }
        sb.append(String.format(Locale.ROOT, "; reserved %,d tokens, reported %,d, admitted %,d", b.reservedTokens(),
                b.reportedTokens(), b.tokensAdmitted()));
        if (f.baselineRatio() != null || f.baselineFeasibleRatio() != null) {
            sb.append("; quotaflow / baseline: ");
            List<String> ratios = new ArrayList<>();
            if (f.baselineRatio() != null) {
                ratios.add(String.format(Locale.ROOT, "%.2f× tickets per busy minute", f.baselineRatio()));
            }
            if (f.baselineFeasibleRatio() != null) {
                ratios.add(String.format(Locale.ROOT, "%.2f× whole-run share of feasible", f.baselineFeasibleRatio()));
            }
            sb.append(String.join(", ", ratios));
        }
        return sb.toString();
    }

    /** {@code 5,432 tickets/s} (i), {@code p99 1.23 s} (j), {@code 25,310 records/s} (k), else a dash. */
    static String speed(ScenarioFigures f) {
        if (f.replay() != null) {
            return String.format(Locale.ROOT, "%,.0f records/s", f.replay().recordsPerSecond());
        }
        if (f.interactive() != null && f.interactive().tickets() > 0) {
            return "p99 " + seconds(f.interactive().p99Ms());
        }
        if (f.ticketsPerSecond() != null) {
            String rate = String.format(Locale.ROOT, "%,.0f tickets/s", f.ticketsPerSecond());
            // the row's own run is the one of its rate
            return f.pipelineCpu() == null ? rate : f.pipelineCpu().stream().filter(c -> f.ticketsPerSecond().equals(c.ticketsPerSecond()))
                    .findFirst().map(c -> String.format(Locale.ROOT, "%s, %,.0f µs", rate, c.microsPerTicket())).orElse(rate);
        }
        return NONE;
    }

    /**
     * (i) {@code pipeline CPU a ticket (publish to last result): cold 1,020 µs at 900 tickets/s (its threads), ...}: each
     * run's CPU beside its rate, the fresh JVM's against the target.
     */
    static String pipelineCpu(List<ScenarioFigures.PipelineCpu> runs) {
        StringBuilder sb = new StringBuilder("pipeline CPU a ticket, first publish to last result:");
        String sep = " ";
        for (ScenarioFigures.PipelineCpu c : runs) {
            sb.append(sep).append(String.format(Locale.ROOT, "%s %,.0f µs at %s tickets/s (%s)", c.run(), c.microsPerTicket(),
                    c.ticketsPerSecond() == null ? NONE : String.format(Locale.ROOT, "%,.0f", c.ticketsPerSecond()),
                    "process".equals(c.counted()) ? "its JVM's process CPU, JIT and GC included" : "its threads in the bench JVM"));
            sep = "; ";
        }
        if (runs.isEmpty()) {
            sb.append(" not measured");
        }
        runs.stream().filter(c -> "process".equals(c.counted())).findFirst().ifPresent(c -> sb.append(String.format(Locale.ROOT,
                "; target: at most %,d µs a ticket in a fresh JVM (or %,d tickets/s): %s", PIPELINE_CPU_TARGET_MICROS,
                PIPELINE_RATE_TARGET, c.microsPerTicket() <= PIPELINE_CPU_TARGET_MICROS
                        || c.ticketsPerSecond() != null && c.ticketsPerSecond() >= PIPELINE_RATE_TARGET ? "met" : "not met")));
        return sb.toString();
    }

    /** (i)'s target: the pipeline's CPU a ticket in a fresh JVM, or its rate. */
    static final int PIPELINE_CPU_TARGET_MICROS = 500;
    static final int PIPELINE_RATE_TARGET = 5_000;

    /** {@code $0.042}: the usage's cost at {@link #ASSUMED_PRICES} per 1 000 classified tickets, or a dash without any. */
    static String costPerThousand(long promptTokens, long completionTokens, Long classified) {
        if (classified == null || classified == 0) {
            return NONE;
        }
        return String.format(Locale.ROOT, "$%.4f", ASSUMED_PRICES.cost(promptTokens, completionTokens) * 1000 / classified);
    }

    /** Tickets neither classified nor dead-lettered: the figures' count, else computed, else null. */
    static Long lost(ScenarioResult r) {
        if (r.figures().lost() != null) {
            return r.figures().lost();
        }
        if (r.computed() || r.classified() == null || r.deadLettered() == null) {
            return null;
        }
        return r.tickets() - r.classified() - r.deadLettered();
    }

    private static String count(Long v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%,d", v);
    }

    private static String steady(SteadyStateUse use) {
        return use != null && use.measured() ? String.format(Locale.ROOT, "%.1f %% %s", use.use() * 100, use.binding()) : NONE;
    }

    private static String whole(WholeRunUse use) {
        return use != null && use.measured() ? String.format(Locale.ROOT, "%.1f %%", use.use() * 100) : NONE;
    }

    private static String perMinute(Double v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String window(ScenarioResult r) {
        if (r.computed()) {
            return "computed";
        }
        if (Scenario.CHAOS.equals(r.key())) {
            return "none (kills)";
        }
        if (r.figures().replay() != null || r.steadyState() == null) {
            return NONE;
        }
        return window(r.steadyState(), true);
    }

    private static String window(SteadyStateUse use, boolean sayTooShort) {
        if (use == null || !use.measured()) {
            return sayTooShort ? "too short" : NONE;
        }
        return (use.shortRun() ? "+10 s †" : "+60 s") + ", " + use.windowSeconds() + " s";
    }

    /** {@code 4 m 07 s} or {@code 12.3 s}. */
    public static String duration(long ms) {
        if (ms < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = Math.round(ms / 1000.0);
        return String.format(Locale.ROOT, "%d m %02d s", s / 60, s % 60);
    }

    /** {@code 1.23 s}. */
    static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
    }

    public static String percent(Double share) {
        return share == null ? NONE : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String escape(String cell) {
        return cell.replace("|", "\\|");
    }
}
