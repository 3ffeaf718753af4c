package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one failover run measured ({@link FailoverRunner}): the variant, the figures, and the run's
 * accounting (429s, lost, duplicated). {@link #table(List)} prints several runs with their ratios
 * to the first one (the baseline: the settings before the change).
 *
 * @param variant        the variant's name
 * @param description    what it sets
 * @param settings       the instances' {@code kafka.*} settings and {@code instance.id}, and the broker's overrides, as text
 * @param tickets        tickets published
 * @param victim         the killed instance's label
 * @param victimRoutes   the routes of the scopes it owned at the kill
 * @param figures        the timings and quota use
 * @param restartRunningSeconds seconds from the kill until the restarted instance's streams were RUNNING (null: no restart)
 * @param http429        429s the six providers answered
 * @param calls          requests the six providers received
 * @param classified     tickets classified
 * @param deadLettered   tickets dead-lettered
 * @param lost           published tickets with neither a result nor a dead letter
 * @param duplicated     result records beyond the first of their ticket
 * @param wallTimeMs     first publish to the last outcome
 * @param logDir         where the instances' logs are
 * @param notes          anything else worth a line
 * @param fullRate       how soon each moved scope ran at its key's full rate again, and each scope's use
 */
public record FailoverResult(String variant, String description, String settings, int tickets, String victim,
                             List<String> victimRoutes, FailoverFigures figures, Double restartRunningSeconds, long http429,
                             long calls, long classified, long deadLettered, long lost, long duplicated, long wallTimeMs,
                             String logDir, List<String> notes, FullRateFigures fullRate) {

    /** The target: a dead instance's scopes admit calls again elsewhere within this many seconds. */
    public static final double TARGET_SECONDS = 10;
    /** The target: each moved scope back above 90 % of its key within this many seconds of its restore. */
    public static final double FULL_RATE_TARGET_SECONDS = 15;

    public FailoverResult {
        Objects.requireNonNull(variant, "variant");
        Objects.requireNonNull(figures, "figures");
        Objects.requireNonNull(fullRate, "fullRate");
        victimRoutes = List.copyOf(victimRoutes);
        notes = List.copyOf(notes);
    }

    /** Nothing lost or duplicated, and no 429. */
    public boolean clean() {
        return lost == 0 && duplicated == 0 && http429 == 0;
    }

    /** The seconds column: each of the killed instance's scopes, slowest last ({@code 7.2, 7.9 s}). */
    String secondsText() {
        List<String> parts = new ArrayList<>();
        figures.secondsToAdmit().values().stream().sorted((a, b) -> a == null ? 1 : b == null ? -1 : Double.compare(a, b))
                .forEach(s -> parts.add(s == null ? "never" : String.format(Locale.ROOT, "%.1f", s)));
        return parts.isEmpty() ? "–" : String.join(", ", parts) + " s";
    }

    /** The seconds-to-full-rate column: each moved scope, slowest last ({@code 0.0, 2.5 s}). */
    String fullRateText() {
        List<String> parts = new ArrayList<>();
        fullRate.secondsToFullRate().values().stream().sorted((a, b) -> a == null ? 1 : b == null ? -1 : Double.compare(a, b))
                .forEach(s -> parts.add(s == null ? "never" : String.format(Locale.ROOT, "%.1f", s)));
        return parts.isEmpty() ? "–" : String.join(", ", parts) + " s";
    }

    /** Whether every moved scope was back at 90 % of its key within {@link #FULL_RATE_TARGET_SECONDS} of its restore. */
    public boolean fullRateMet() {
        Double max = fullRate.maxSecondsToFullRate();
        return max != null && max <= FULL_RATE_TARGET_SECONDS;
    }

    /** Where each of the killed instance's scopes admitted again ({@code s1→fo-2}). */
    String movedText() {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Integer, String> e : figures.ownerAfter().entrySet()) {
            parts.add("s" + e.getKey() + "→" + (e.getValue() == null ? "?" : e.getValue()));
        }
        return String.join(" ", parts);
    }

    /** The table of several runs: one row each, ratios to the first row's figures. */
    public static String table(List<FailoverResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-26s %-16s %7s %-16s %7s %7s %7s %7s %7s %7s %6s %5s %4s %4s %4s  %s%n", "variant",
                "admit again", "≤10 s", "90 % again", "≤15 s", "run", "before", "after", "moved", "kept", "×base", "moves", "429", "lost", "dup",
                "killed → where"));
        FailoverResult base = results.isEmpty() ? null : results.get(0);
        for (FailoverResult r : results) {
            FailoverFigures f = r.figures();
            sb.append(String.format(Locale.ROOT, "%-26s %-16s %7s %-16s %7s %7s %7s %7s %7s %7s %6s %5s %4d %4d %4d  %s %s%n", r.variant(),
                    r.secondsText(), f.allWithin(TARGET_SECONDS) ? "yes" : "no", r.fullRateText(), r.fullRateMet() ? "yes" : "no",
                    pct(f.useRun()), pct(f.useBefore()), pct(f.useAfter()),
                    pct(f.useAfterMoved()), pct(f.useAfterKept()), ratio(f.useRun(), base == null ? Double.NaN : base.figures().useRun()),
                    f.ownerChanges() + "", r.http429(), r.lost(), r.duplicated(), r.victim(),
                    r.movedText()));
        }
        return sb.toString();
    }

    /** The same as Markdown, with the legend. */
    public static String markdown(List<FailoverResult> results, String command) {
        StringBuilder sb = new StringBuilder("## Failover: one of three instances killed (six quota scopes)\n\n");
        sb.append("`").append(command).append("`\n\n");
        sb.append("| variant | seconds until its scopes admit again | ≤ 10 s | seconds from restore to 90 % of the key | ≤ 15 s "
                + "| use over the run | before the kill | after | after, moved scopes | after, kept scopes | run × baseline "
                + "| owner changes after the kill | 429s | lost | dup |\n");
        sb.append("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        FailoverResult base = results.isEmpty() ? null : results.get(0);
        for (FailoverResult r : results) {
            FailoverFigures f = r.figures();
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %d | %d |%n", r.variant(),
                    r.secondsText(), f.allWithin(TARGET_SECONDS) ? "yes" : "no", r.fullRateText(), r.fullRateMet() ? "yes" : "no",
                    pct(f.useRun()), pct(f.useBefore()),
                    pct(f.useAfter()), pct(f.useAfterMoved()), pct(f.useAfterKept()),
                    ratio(f.useRun(), base == null ? Double.NaN : base.figures().useRun()),
                    f.ownerChanges() + (r.restartRunningSeconds() == null ? "" : " (" + f.victimScopesBack() + "/"
                            + f.victimScopes().size() + " back)"), r.http429(), r.lost(), r.duplicated()));
        }
        sb.append('\n');
        for (FailoverResult r : results) {
            sb.append("- **").append(r.variant()).append("**: ").append(r.description()).append(". ").append(r.details()).append('\n');
        }
        for (FailoverResult r : results) {
            sb.append("\n**").append(r.variant()).append("**: tokens admitted per 10 s, per scope, from the first call (kill at ")
                    .append(String.format(Locale.ROOT, "%.1f s", r.figures().killAtSeconds())).append("; moved: ")
                    .append(String.join(", ", r.victimRoutes())).append(")\n\n").append(r.fullRate().tableMarkdown());
        }
        return sb.toString();
    }

    /** One paragraph of detail: settings, kill time, who took over, restart, counts. */
    public String details() {
        FailoverFigures f = figures;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "Settings: %s. Killed %s (scopes %s) %.1f s after the first "
                        + "call; busy %.1f s; %s; %d calls, %d classified, %d dead-lettered, wall time %s", settings, victim,
                String.join(", ", victimRoutes), f.killAtSeconds(), f.busySeconds(), movedText(), calls, classified, deadLettered,
                ResultTable.duration(wallTimeMs)));
        if (restartRunningSeconds != null) {
            sb.append(String.format(Locale.ROOT, "; restarted at once: streams RUNNING %.1f s after the kill, %d of %d scopes back "
                    + "with it at the end, %d owner changes after the kill", restartRunningSeconds, f.victimScopesBack(),
                    f.victimScopes().size(), f.ownerChanges()));
        }
        sb.append("; moved scopes, seconds from restore to 90 % of the key (use after restore): ").append(fullRate.text())
                .append("; each scope's use over the run: ").append(fullRate.perScopeText());
        notes.forEach(n -> sb.append("; ").append(n));
        return sb.toString();
    }

    /** The run, as a few lines. */
    public String report() {
        return table(List.of(this)) + details() + System.lineSeparator();
    }

    static String pct(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f %%", v * 100);
    }

    static String ratio(double v, double base) {
        return Double.isNaN(v) || Double.isNaN(base) || base <= 0 ? "–" : String.format(Locale.ROOT, "%.2f×", v / base);
    }
}
