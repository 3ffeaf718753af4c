package io.quotaflow.llm;

import io.quotaflow.settings.ModelSettings;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The prompt version keys the classification cache (docs/design.md, "Cache"): a changed prompt
 * under the same version would be answered from the old prompt's cache. This fingerprint of the
 * system prompt and response schema fails the build until {@link PromptBuilder#PROMPT_VERSION} is
 * bumped with it (then record the new fingerprint here).
 */
class PromptVersionTest {

    @Test
    void shouldBumpThePromptVersionWhenThePromptOrSchemaChanges() {
        String asked = PromptBuilder.SYSTEM_PROMPT + "\n"
                + PromptBuilder.responseFormat(ModelSettings.DEFAULT_CATEGORIES, ModelSettings.DEFAULT_URGENCIES);
        String fingerprint = WorkItem.sha256(asked.getBytes(StandardCharsets.UTF_8));

        assertThat(PromptBuilder.PROMPT_VERSION + " " + fingerprint)
                .as("PromptBuilder changed: bump PROMPT_VERSION and record the new fingerprint")
                .isEqualTo("2 7a576d9eeb558154c8b5a1eaa275bc8b937bd81e0e824e492eaa116fa323ba45");
    }
}
