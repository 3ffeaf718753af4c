package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class DailyBudgetTest {

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void shouldStartTheBudgetDayAtTheLatestResetHourUtc() {
        assertThat(DailyBudget.dayStart(at("2026-12-01T06:59:59.999Z"), 7)).isEqualTo(at("2026-11-30T07:00:00Z"));
        assertThat(DailyBudget.dayStart(at("2026-12-01T07:00:00Z"), 7)).isEqualTo(at("2026-12-01T07:00:00Z"));
        assertThat(DailyBudget.dayStart(at("2026-12-01T23:59:59Z"), 7)).isEqualTo(at("2026-12-01T07:00:00Z"));
        assertThat(DailyBudget.dayStart(at("2026-12-02T00:00:01Z"), 7)).as("midnight is no reset").isEqualTo(at("2026-12-01T07:00:00Z"));
        assertThat(DailyBudget.dayStart(at("2026-12-01T23:59:59Z"), 0)).isEqualTo(at("2026-12-01T00:00:00Z"));
        assertThat(DailyBudget.dayStart(at("2026-12-02T00:00:00Z"), 0)).isEqualTo(at("2026-12-02T00:00:00Z"));
        assertThat(DailyBudget.dayStart(at("1969-12-31T12:00:00Z"), 23)).as("before the epoch").isEqualTo(at("1969-12-30T23:00:00Z"));
    }

    @Test
    void shouldResetAtHourSevenNotAtMidnight() {
        DailyBudget day = new DailyBudget(new DailyLimits(2, 0, 7));
        long evening = at("2026-12-01T22:00:00Z");
        day.take(Charge.call(10, 5), evening);
        day.take(Charge.call(10, 5), evening);
        assertThat(day.canTake(Charge.call(10, 5), evening)).isFalse();
        assertThat(day.outUntil(evening)).hasValue(at("2026-12-02T07:00:00Z"));
        long afterMidnight = at("2026-12-02T00:30:00Z");
        assertThat(day.canTake(Charge.call(10, 5), afterMidnight)).as("across midnight: the same budget day").isFalse();
        assertThat(day.outUntil(afterMidnight)).hasValue(at("2026-12-02T07:00:00Z"));
        long justBefore = at("2026-12-02T06:59:59.999Z");
        assertThat(day.millisUntil(Charge.call(10, 5), justBefore)).isEqualTo(1);
        long reset = at("2026-12-02T07:00:00Z");
        assertThat(day.canTake(Charge.call(10, 5), reset)).isTrue();
        assertThat(day.outUntil(reset)).isEmpty();
        assertThat(day.remainingRequests(reset)).isEqualTo(2);
    }

    @Test
    void shouldSpendTheRequestsPerDayAndRefundARefusedCallOfTheSameDay() {
        DailyBudget day = new DailyBudget(new DailyLimits(3, 0, 0));
        long morning = at("2026-12-01T09:00:00Z");
        for (int i = 0; i < 3; i++) {
            assertThat(day.canTake(Charge.call(100, 20), morning)).isTrue();
            day.take(Charge.call(100, 20), morning);
        }
        assertThat(day.canTake(Charge.call(100, 20), morning)).isFalse();
        assertThat(day.remainingRequests(morning)).isZero();
        assertThat(day.outUntil(morning)).hasValue(at("2026-12-02T00:00:00Z"));
        assertThat(day.millisUntil(Charge.call(100, 20), morning)).isEqualTo(at("2026-12-02T00:00:00Z") - morning);
        day.giveBack(Charge.call(100, 20), morning, morning + 1_000);
        assertThat(day.outUntil(morning + 1_000)).isEmpty();
        assertThat(day.remainingRequests(morning + 1_000)).isEqualTo(1);
        assertThat(day.canTake(Charge.call(100, 20), morning + 1_000)).isTrue();
    }

    @Test
    void shouldNotRefundACallSentBeforeTheReset() {
        DailyBudget day = new DailyBudget(new DailyLimits(0, 1_000, 0));
        long lateEvening = at("2026-12-01T23:59:59Z");
        day.take(Charge.call(500, 100), lateEvening);
        long nextDay = at("2026-12-02T00:00:05Z");
        day.take(Charge.call(500, 100), nextDay);
        day.giveBack(Charge.call(500, 100), lateEvening, nextDay + 1);
        assertThat(day.remainingTokens(nextDay + 1)).as("yesterday's refund does not credit today").isEqualTo(400);
        day.giveBack(Charge.call(500, 100), nextDay, nextDay + 2);
        assertThat(day.remainingTokens(nextDay + 2)).isEqualTo(1_000);
    }

    @Test
    void shouldBeOutForTheDayWhenTheTokensLeftCannotTakeTheCallAsked() {
        DailyBudget day = new DailyBudget(new DailyLimits(0, 1_000, 0));
        long t = at("2026-12-01T12:00:00Z");
        day.take(Charge.call(500, 100), t);
        assertThat(day.outUntil(t)).isEmpty();
        assertThat(day.canTake(Charge.call(400, 100), t)).as("500 of 400 left").isFalse();
        assertThat(day.outUntil(t)).hasValue(at("2026-12-02T00:00:00Z"));
        assertThat(day.canTake(Charge.call(300, 100), t)).isTrue();
        day.take(Charge.call(300, 100), t);
        assertThat(day.remainingTokens(t)).isZero();
        assertThat(day.outUntil(t)).hasValue(at("2026-12-02T00:00:00Z"));
        day.charge(50, t);
        assertThat(day.remainingTokens(t)).isZero();
    }

    @Test
    void shouldAdmitACallLargerThanTheWholeDayOnlyFromAnUntouchedDay() {
        DailyBudget day = new DailyBudget(new DailyLimits(0, 1_000, 0));
        long t = at("2026-12-01T12:00:00Z");
        assertThat(day.canTake(Charge.call(1_400, 100), t)).isTrue();
        day.take(Charge.call(1_400, 100), t);
        assertThat(day.canTake(Charge.call(1, 1), t)).isFalse();
        assertThat(day.canTake(Charge.call(1_400, 100), at("2026-12-02T00:00:00Z"))).isTrue();
    }

    @Test
    void shouldTakeOverWhatAPreviousOwnerSpentTodayOnly() {
        DailyBudget first = new DailyBudget(new DailyLimits(10, 0, 7));
        long t = at("2026-12-01T08:00:00Z");
        first.take(Charge.call(10, 1), t);
        first.take(Charge.call(10, 1), t);
        DailyUsage spent = first.usage(t);
        DailyBudget next = new DailyBudget(new DailyLimits(10, 0, 7));
        next.restore(spent, t + 60_000);
        assertThat(next.remainingRequests(t + 60_000)).isEqualTo(8);
        DailyBudget tomorrow = new DailyBudget(new DailyLimits(10, 0, 7));
        tomorrow.restore(spent, at("2026-12-02T07:00:00Z"));
        assertThat(tomorrow.remainingRequests(at("2026-12-02T07:00:00Z"))).isEqualTo(10);
    }
}
