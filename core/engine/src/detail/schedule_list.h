// The built-in schedules, in display order: the classics, the zero-bubble family, the two-direction
// schedules, then the user's own. One line per schedule: PIPESIM_SCHEDULE(id) names the spec
// detail::id_spec that core/engine/src/schedules/<its file>.cpp defines. Adding a schedule is its file plus
// one line here. Included by detail/specs.h (declarations) and registry.cpp (the catalogue).
// No include guard: each includer defines PIPESIM_SCHEDULE for what it needs.
PIPESIM_SCHEDULE(gpipe)
PIPESIM_SCHEDULE(one_f_one_b)
PIPESIM_SCHEDULE(interleaved_1f1b)
PIPESIM_SCHEDULE(zb_h1)
PIPESIM_SCHEDULE(zb_h2)
PIPESIM_SCHEDULE(zb_v)
PIPESIM_SCHEDULE(dualpipe)
PIPESIM_SCHEDULE(dualpipev)
PIPESIM_SCHEDULE(chimera)
PIPESIM_SCHEDULE(custom)
