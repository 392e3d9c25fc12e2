# The fuzz build, run by `make fuzz` (qa/fuzz/Makefile.inc passes the engine's
# source list and flags). Objects go to qa/fuzz/obj/ so that the normal build's
# objects are never touched.
srcdir ?= .
VPATH = $(srcdir)
OBJDIR = qa/fuzz/obj
HARNESSES = pcap pipeline rule yaml http dns tls smtp ssh ftp dcerpc smb mqtt sip ber pop3 pgsql udp dnp3 remote http2 ics misc quic
BINS = $(patsubst %,qa/fuzz/fuzz_%,$(HARNESSES))
ENGINE_OBJS = $(patsubst %.c,$(OBJDIR)/%.o,$(ENGINE_SRCS))
COMMON_OBJ = $(OBJDIR)/qa/fuzz/fuzz-common.o $(OBJDIR)/qa/fuzz/fuzz-engine.o
LIB = $(OBJDIR)/libengine-fuzz.a
CPPF = $(FUZZ_CPPFLAGS) -I$(srcdir)/qa/fuzz -DFUZZ_TOP_SRCDIR=\"$(abspath $(srcdir))\" \
	-DFUZZ_TOP_BUILDDIR=\"$(abspath .)\"

all: $(BINS)

$(OBJDIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPF) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(LIB): $(ENGINE_OBJS)
	rm -f $@
	ar cr $@ $(ENGINE_OBJS)

qa/fuzz/fuzz_%: $(OBJDIR)/qa/fuzz/fuzz_%.o $(COMMON_OBJ) $(LIB)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS) -lpthread

.SECONDARY:
.PHONY: all

-include $(ENGINE_OBJS:.o=.d) $(COMMON_OBJ:.o=.d) $(patsubst %,$(OBJDIR)/qa/fuzz/fuzz_%.d,$(HARNESSES))
