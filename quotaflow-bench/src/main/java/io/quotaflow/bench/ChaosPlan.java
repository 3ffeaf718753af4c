package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the chaos scenario does and when, as a function of progress: the tickets are published in
 * waves, and the pipeline and the broker are killed, each step once the number of tickets
 * accounted for (classified or dead-lettered) reaches its share of the total. Steps run one at a
 * time, in {@link #steps()} order; a publish wave always comes before a kill of the same share, so
 * that every kill happens while published work is still in flight.
 *
 * <p>The standard plan ({@link #standard(int)}): half the tickets at once, a quarter at 30 % and
 * the last quarter at 55 %; the pipeline killed at 15 %, 40 % and 65 %, the broker at 50 %.
 *
 * @param tickets tickets in the run
 * @param waves   publish waves, covering tickets {@code [0, tickets)} once, in order
 * @param kills   the SIGKILLs
 */
public record ChaosPlan(int tickets, List<Wave> waves, List<Kill> kills) {

    /** What a kill hits. */
    public enum Target {
        /** The pipeline process ({@code quotaflow run}); restarted at once with the same arguments and state dir. */
        PIPELINE,
        /** The broker process ({@code quotaflow broker}); restarted on the same port and data dir after a pause. */
        BROKER;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One step of the plan, due once {@link #atShare()} of the tickets are accounted for. */
    public sealed interface Step permits Wave, Kill {
        double atShare();
    }

    /**
     * Publish tickets {@code [from, to)} (generator indexes).
     *
     * @param index 1-based
     */
    public record Wave(int index, double atShare, int from, int to) implements Step {
        public Wave {
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("invalid wave [" + from + ", " + to + ")");
            }
        }

        public int size() {
            return to - from;
        }
    }

    /**
     * SIGKILL {@code target}.
     *
     * @param index 1-based, over all kills
     */
    public record Kill(int index, Target target, double atShare) implements Step {
        public Kill {
            Objects.requireNonNull(target, "target");
            if (!(atShare > 0 && atShare < 1)) {
                throw new IllegalArgumentException("a kill is due strictly between 0 and 100 %: " + atShare);
            }
        }
    }

    /** Shares at which the publish waves go out, and the share of tickets each one carries. */
    static final double[] WAVE_AT = {0, 0.30, 0.55};
    static final double[] WAVE_SIZE = {0.50, 0.25, 0.25};

    public ChaosPlan {
        if (tickets < 1) {
            throw new IllegalArgumentException("tickets must be >= 1: " + tickets);
        }
        waves = List.copyOf(waves);
        kills = List.copyOf(kills);
        int next = 0;
        for (Wave w : waves) {
            if (w.from() != next) {
                throw new IllegalArgumentException("waves must cover the tickets in order, without gaps: " + waves);
            }
            next = w.to();
        }
        if (next != tickets) {
            throw new IllegalArgumentException("waves cover " + next + " of " + tickets + " tickets");
        }
    }

    /** Three publish waves (50 % at once, 25 % at 30 %, 25 % at 55 %); pipeline kills at 15, 40, 65 %; broker kill at 50 %. */
    public static ChaosPlan standard(int tickets) {
        if (tickets < 1) {
            throw new IllegalArgumentException("tickets must be >= 1: " + tickets);
        }
        List<Wave> waves = new ArrayList<>();
        int from = 0;
        double cumulative = 0;
        for (int i = 0; i < WAVE_AT.length; i++) {
            cumulative += WAVE_SIZE[i];
            int to = i == WAVE_AT.length - 1 ? tickets : (int) Math.round(tickets * cumulative);
            waves.add(new Wave(i + 1, WAVE_AT[i], from, to));
            from = to;
        }
        List<Kill> kills = List.of(
                new Kill(1, Target.PIPELINE, 0.15),
                new Kill(2, Target.PIPELINE, 0.40),
                new Kill(3, Target.BROKER, 0.50),
                new Kill(4, Target.PIPELINE, 0.65));
        return new ChaosPlan(tickets, waves, kills);
    }

    /** Waves and kills in the order they run: by share, a wave before a kill of the same share. */
    public List<Step> steps() {
        List<Step> steps = new ArrayList<>(waves);
        steps.addAll(kills);
        steps.sort(Comparator.comparingDouble(Step::atShare).thenComparingInt(s -> s instanceof Wave ? 0 : 1));
        return List.copyOf(steps);
    }

    /** Tickets accounted for at which a step of this share is due (at least 1 for a positive share). */
    public long threshold(double share) {
        if (share <= 0) {
            return 0;
        }
        return Math.max(1, (long) Math.ceil(share * tickets - 1e-9));
    }

    /**
     * The step to run now, if any: the first of {@link #steps()} not yet done, when {@code outcomes}
     * reached its threshold. A kill is never due once every ticket is accounted for (there would be
     * nothing in flight to lose); the caller reports it as not performed.
     *
     * @param stepsDone how many of {@link #steps()} have run
     * @param outcomes  tickets accounted for so far
     */
    public Optional<Step> due(int stepsDone, long outcomes) {
        List<Step> steps = steps();
        if (stepsDone >= steps.size()) {
            return Optional.empty();
        }
        Step next = steps.get(stepsDone);
        if (outcomes < threshold(next.atShare())) {
            return Optional.empty();
        }
        if (next instanceof Kill && outcomes >= tickets) {
            return Optional.empty();
        }
        return Optional.of(next);
    }

    /** How many pipeline kills the plan holds. */
    public long kills(Target target) {
        return kills.stream().filter(k -> k.target() == target).count();
    }

    /** {@code pipeline at 15 %, 40 %, 65 %; broker at 50 %; tickets published in 3 waves (at 0 %, 30 %, 55 %)}. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Target t : Target.values()) {
            List<String> at = kills.stream().filter(k -> k.target() == t).map(k -> percent(k.atShare())).toList();
            if (!at.isEmpty()) {
                sb.append(sb.length() == 0 ? "" : "; ").append(t.label()).append(" SIGKILL at ").append(String.join(", ", at));
            }
        }
        sb.append("; tickets published in ").append(waves.size()).append(" waves (at ")
                .append(String.join(", ", waves.stream().map(w -> percent(w.atShare())).toList())).append(')');
        return sb.toString();
    }

    private static String percent(double share) {
        return Math.round(share * 100) + " %";
    }
}
