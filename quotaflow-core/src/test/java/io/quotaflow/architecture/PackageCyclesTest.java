package io.quotaflow.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * No package of quotaflow depends on itself through others: every package (each its own slice, so
 * sub-packages count) of the production code this module's tests see (core and the modules it builds
 * on) forms a cycle-free graph, whatever the length of the cycle. The modules built on core (cli,
 * simulator, bench) are checked by the same rule from quotaflow-bench, whose test classpath holds them all.
 */
public class PackageCyclesTest {

    /** Any cycle between two or more packages under {@code io.quotaflow}. */
    public static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.quotaflow.(**)").should().beFreeOfCycles();

    /** Production classes only: no test classes, whether from a test-classes directory or a test jar. */
    public static final ImportOption PRODUCTION_ONLY = (Location location) ->
            !location.contains("/test-classes/") && !location.contains("-tests.jar");

    @Test
    void shouldHaveNoPackageCycleInCoreAndWhatItBuildsOn() {
        JavaClasses production = new ClassFileImporter().withImportOption(PRODUCTION_ONLY).importPackages("io.quotaflow");

        assertThat(production.stream().map(c -> c.getPackageName()).distinct())
                .as("the scan sees core, its dispatch packages and the modules core builds on")
                .contains("io.quotaflow.records", "io.quotaflow.tokens", "io.quotaflow.duration", "io.quotaflow.testkit",
                        "io.quotaflow.dispatch", "io.quotaflow.dispatch.ledger", "io.quotaflow.dispatch.plan", "io.quotaflow.dispatch.call",
                        "io.quotaflow.dispatch.outcome", "io.quotaflow.dispatch.report", "io.quotaflow.failure", "io.quotaflow.routing",
                        "io.quotaflow.topology");
        NO_PACKAGE_CYCLES.check(production);
    }

    @Test
    void shouldRejectACycleThroughThreePackages() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.quotaflow.architecture.cyclefixture");

        assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(fixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("cyclefixture.a").hasMessageContaining("cyclefixture.b").hasMessageContaining("cyclefixture.c");
    }

    @Test
    void shouldAcceptTheFixtureWithoutItsClosingEdge() {
        JavaClasses chain = new ClassFileImporter().importPackages("io.quotaflow.architecture.cyclefixture.a",
                "io.quotaflow.architecture.cyclefixture.b");

        NO_PACKAGE_CYCLES.check(chain);
    }
}
