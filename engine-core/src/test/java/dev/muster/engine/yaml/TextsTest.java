package dev.muster.engine.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextsTest {
    @Test
    void aHugeValueIsQuotedShortWithItsLength() {
        String huge = "n".repeat(300_000);

        String message = Texts.shortenedQuotes("metadata.name: '" + huge + "' is too long");

        assertThat(message).isEqualTo("metadata.name: '" + "n".repeat(64) + "... (300000 characters)' is too long");
        assertThat(Texts.shortened(Texts.shortened(huge))).isEqualTo(Texts.shortened(huge));
    }
}
