"""Cheap2Rich-style multi-fidelity data assimilation: a cheap front model, a sparse learned discrepancy, sensors.

The paper's system is a rotating detonation engine. Here a periodic 1-D reaction-advection model of a
travelling combustion front stands in for it (a stand-in, not an RDE solver): the low-fidelity model is
advection, diffusion and a bistable reaction; the high-fidelity one adds injector forcing (a reaction rate
modulated by the injectors and a loss) that the sparse regression has to find.
"""
