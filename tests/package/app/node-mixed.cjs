// The other way round: init() from require('sweep-prune'), then the ES module copy through import(). Its error names
// that copy and the call that initialises it, and that call works.
void require('sweep-prune')
  .init()
  .then(async () => {
    const sp = await import('sweep-prune');
    let error;
    try {
      new sp.World();
    } catch (e) {
      error = { code: e.code, message: e.message };
    }
    await sp.init(); // as the message says
    const world = new sp.World();
    world.dispose();
    console.log(JSON.stringify({ error, after: world.disposed }));
  });
