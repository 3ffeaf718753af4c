package io.quotaflow.http;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AsyncPoolTest {

    @Test
    void shouldAskForTwoPooledThreadsOnTwoCoresOrFewer() {
        assertThat(AsyncPool.parallelismFor(1, null)).contains("2");
        assertThat(AsyncPool.parallelismFor(2, null)).contains("2");
    }

    @Test
    void shouldLeaveTheJdksDefaultOnThreeCoresOrMoreAndAnOperatorsSetting() {
        assertThat(AsyncPool.parallelismFor(3, null)).isEmpty();
        assertThat(AsyncPool.parallelismFor(16, null)).isEmpty();
        assertThat(AsyncPool.parallelismFor(2, "1")).isEmpty();
    }
}
