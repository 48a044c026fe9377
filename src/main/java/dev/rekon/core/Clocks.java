package dev.rekon.core;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The one source of time for every decision Rekon makes, so that tests can fix it. */
@Singleton
public class Clocks {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }
}
