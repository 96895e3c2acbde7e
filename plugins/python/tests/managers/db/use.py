from db.conn import Conn, Engine, Opaque, Opener, SubSelfish, connect, session, stream


def use(engine: Engine) -> None:
    with connect() as c:
        c.run()  # @fact edge CALLS db.use.use -> db.conn.Conn.run by=receiver site=6
    with SubSelfish() as s:
        s.go()  # @fact edge CALLS db.use.use -> db.conn.SubSelfish.go by=receiver site=8
        # @fact no-edge CALLS db.use.use -> db.conn.Selfish.go
    with Opener() as o, engine.tx() as t:
        o.run()  # @fact edge CALLS db.use.use -> db.conn.Conn.run by=receiver site=11
        t.run()  # @fact edge CALLS db.use.use -> db.conn.Conn.run by=receiver site=12
        t.commit()  # Tx.__enter__ declares a Conn: no commit proven
        # @fact no-edge CALLS db.use.use -> db.conn.Tx.commit
    conn = Conn()
    with conn as same:
        same.run()  # @fact edge CALLS db.use.use -> db.conn.Conn.run by=receiver site=17
    with Opaque() as q:
        q.go()  # what lookup() gives is not known
        # @fact no-edge CALLS db.use.use -> db.conn.Opaque.go
    with session() as db:
        db.run()  # @fact edge CALLS db.use.use -> db.conn.Conn.run by=receiver site=22
    with stream() as it:
        it.run()  # @fact no-edge CALLS db.use.use -> db.conn.Conn.run site=24
